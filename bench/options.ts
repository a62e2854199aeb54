// The benchmark's command line: `npm run bench -- --duration 10 ...` -> the options of one run.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from './procs.js';

export type BenchOptions = ReturnType<typeof options>;

export function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      soak: { type: 'string' },
      'soak-connections': { type: 'string' },
      'rest-connections': { type: 'string' },
      'store-timeout-ms': { type: 'string' },
      rounds: { type: 'string' },
      scale: { type: 'string' },
      data: { type: 'string' },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      write: { type: 'boolean' },
      'no-write': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'service-flags': { type: 'string' },
      'service-env': { type: 'string' },
      out: { type: 'string' },
    },
  });
  const quick = values.quick!;
  const num = (v: string | undefined, fallback: number, name: string): number => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0 || n > 3_600_000) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  const connections = num(values.connections, 50, 'connections');
  return {
    quick,
    duration: num(values.duration, quick ? 3 : 10, 'duration'),
    connections,
    warmup: num(values.warmup, quick ? 1 : 3, 'warmup'),
    soak: values.soak === '0' ? 0 : num(values.soak, quick ? 10 : 60, 'soak'),
    soakConnections: num(values['soak-connections'], 100, 'soak-connections'),
    restConnections: num(values['rest-connections'], connections, 'rest-connections'),
    scale: values.scale ?? (quick ? 'demo' : 'medium'),
    storeTimeoutMs: num(values['store-timeout-ms'], 30_000, 'store-timeout-ms'),
    rounds: Math.round(num(values.rounds, 1, 'rounds')),
    data: values.data,
    only: values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    write: values.write ?? (!quick && !values['no-write']),
    cpuProf: values['cpu-prof']!,
    /** Extra node flags for the service processes (to try a V8 setting against the default). */
    serviceFlags: values['service-flags']?.split(' ').filter(Boolean) ?? [],
    /** Extra environment for the service processes, `A=1,B=2` (to compare a setting against the default). */
    serviceEnv: Object.fromEntries(
      (values['service-env'] ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=', 2) as [string, string]),
    ),
    out: values.out ?? join(projectRoot, 'docs/PERFORMANCE.md'),
  };
}
