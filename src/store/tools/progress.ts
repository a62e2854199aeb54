// Progress of a long copy, dump or restore: a bar per collection on a terminal (cli-progress), otherwise a
// line on stderr each time a collection passes another tenth, so logs of a scripted run stay short.
import cliProgress from 'cli-progress';

export interface Progress {
  start(collection: string, total: number): void;
  advance(collection: string, done: number): void;
  stop(): void;
}

export const noProgress: Progress = { start: () => undefined, advance: () => undefined, stop: () => undefined };

export function progressFor(stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? bars(stream) : lines(stream);
}

function bars(stream: NodeJS.WriteStream): Progress {
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: ' {collection} |{bar}| {percentage}% {value}/{total} {speed}/s ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const byName = new Map<string, { bar: cliProgress.SingleBar; started: number; done: number }>();
  return {
    start(collection, total) {
      byName.set(collection, {
        bar: multi.create(Math.max(total, 1), 0, { collection: collection.padEnd(24), speed: 0 }),
        started: performance.now(),
        done: 0,
      });
    },
    advance(collection, done) {
      const entry = byName.get(collection);
      if (!entry) return;
      entry.done += done;
      const seconds = (performance.now() - entry.started) / 1000;
      // A collection that grew since it was counted: the bar's total follows.
      if (entry.done > entry.bar.getTotal()) entry.bar.setTotal(entry.done);
      entry.bar.update(entry.done, { speed: seconds > 0 ? Math.round(entry.done / seconds) : 0 });
    },
    stop: () => multi.stop(),
  };
}

function lines(stream: NodeJS.WriteStream): Progress {
  const state = new Map<string, { total: number; done: number }>();
  return {
    start(collection, total) {
      state.set(collection, { total, done: 0 });
    },
    advance(collection, n) {
      const s = state.get(collection);
      if (!s || s.total === 0) return;
      const before = s.done;
      s.done += n;
      if (Math.floor((s.done * 10) / s.total) > Math.floor((before * 10) / s.total)) {
        stream.write(
          `  ${collection}: ${s.done}/${s.total} (${Math.min(100, Math.floor((s.done * 100) / s.total))}%)\n`,
        );
      }
    },
    stop: () => undefined,
  };
}
