// The machine a run was measured on: cores, memory, CPU model, Node, load before the run.
import { readFileSync } from 'node:fs';
import { availableParallelism, freemem, loadavg, totalmem } from 'node:os';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  platform: string;
  kernel: string;
  loadBefore: number[];
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function kernel(): string {
  try {
    return readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

export function describeMachine(): Machine {
  return {
    cores: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    kernel: kernel(),
    loadBefore: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export const currentLoad = (): number[] => loadavg().map((l) => Math.round(l * 100) / 100);
