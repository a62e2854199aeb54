// The sorting thread of an index build (sorter.ts starts it): sorts and writes each run it is sent, then merges
// them into batches sent back as the build asks for them, BATCHES_AHEAD at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { RunFiles, type FromSorter, type ToSorter } from './sorter.js';

const data = workerData as { sortDir?: string } | null;
if (parentPort && data?.sortDir) {
  const port = parentPort;
  const files = new RunFiles(data.sortDir);
  let merge: Generator<Buffer> | undefined;
  let credit = 0;
  const post = (m: FromSorter, transfer?: ArrayBuffer[]): void => port.postMessage(m, transfer);
  const send = (): void => {
    while (merge && credit > 0) {
      const next = merge.next();
      if (next.done) {
        merge = undefined;
        post({ kind: 'end' });
        return;
      }
      credit--;
      const buf = next.value.buffer as ArrayBuffer;
      post({ kind: 'batch', buf, length: next.value.length }, [buf]);
    }
  };
  port.on('message', (m: ToSorter) => {
    try {
      if (m.kind === 'run') {
        files.spill(Buffer.from(m.buf, 0, m.length));
        post({ kind: 'spilled' });
      } else if (m.kind === 'merge') {
        merge = files.merged();
        credit = m.ahead;
        send();
      } else {
        credit++;
        send();
      }
    } catch (e) {
      post({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  });
}
