// The reader thread of a search's facets (facet-thread.ts starts it): opens the engine's LMDB environment, read
// only (lmdb hands this thread the environment the engine's thread opened), and counts the part of a search's
// candidates it is sent, in one read transaction that also reads the state's stamp.
import { parentPort, workerData } from 'node:worker_threads';
import { open } from 'lmdb';
import { decode } from '../storage/bsonio.js';
import { peekDoc } from '../storage/collection.js';
import { readStamp } from '../storage/env.js';
import type { Rid } from '../storage/index-keys.js';
import { facetTallies, type FacetJob } from './facet-pass.js';
import type { FromReader, ToReader } from './facet-thread.js';

const data = workerData as { facetReader?: { file: string } } | null;
if (parentPort && data?.facetReader) {
  const port = parentPort;
  const root = open<Buffer, string>({ path: data.facetReader.file, maxDbs: 8, encoding: 'binary', readOnly: true });
  const docs = root.openDB<Buffer, Buffer>('docs', { keyEncoding: 'binary', encoding: 'binary' });
  const meta = root.openDB<Buffer, string>('meta', { encoding: 'binary' });
  const post = (m: FromReader): void => port.postMessage(m);
  function* stored(coll: number, rids: Rid[]): Generator<Buffer | undefined> {
    for (const rid of rids) yield peekDoc(docs, coll, rid);
  }
  port.on('message', (m: ToReader) => {
    try {
      // A fresh read transaction (lmdb keeps one for the rest of a turn): the newest state, which is the one the
      // engine's thread read unless a commit came in between.
      root.resetReadTxn();
      const txn = root.useReadTransaction();
      try {
        const stamp = readStamp(meta, txn);
        if (stamp === undefined ? m.stamp !== null : m.stamp === null || !stamp.equals(m.stamp)) {
          post({ kind: 'stale', id: m.id });
          return;
        }
        const tallies = facetTallies(decode(m.job) as FacetJob, stored(m.coll, m.rids), {});
        post({ kind: 'counted', id: m.id, tallies: tallies ?? null });
      } finally {
        txn.done();
      }
    } catch (e) {
      post({ kind: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
    }
  });
  post({ kind: 'ready' });
}
