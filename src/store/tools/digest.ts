// A per-collection fingerprint that does not depend on the order documents come back in: the count, and the
// lane-wise sum (four 64-bit lanes, each modulo 2^64) of the SHA-256 of every document's BSON bytes. Two
// stores agree when they hold the same documents byte for byte, whatever their storage order; memory stays
// constant however large the collection (a sorted list of hashes would not).
import { createHash } from 'node:crypto';
import type { Db, Document } from 'mongodb';

export interface CollectionSummary {
  count: number;
  /** 64 hex digits. */
  digest: string;
}

export class DigestAccumulator {
  private readonly lanes = new BigUint64Array(4);
  private n = 0;

  add(bytes: Uint8Array): void {
    const hash = createHash('sha256').update(bytes).digest();
    for (let i = 0; i < 4; i++) this.lanes[i] = this.lanes[i]! + hash.readBigUInt64BE(i * 8);
    this.n++;
  }

  summary(): CollectionSummary {
    return { count: this.n, digest: [...this.lanes].map((l) => l.toString(16).padStart(16, '0')).join('') };
  }
}

/** Reads every document (matching `filter`) of a collection as raw bytes and summarises them. */
export async function summarize(db: Db, name: string, filter: Document = {}): Promise<CollectionSummary> {
  const acc = new DigestAccumulator();
  for await (const bytes of db
    .collection(name)
    .find(filter, { raw: true, batchSize: 2000 }) as AsyncIterable<unknown>) {
    acc.add(bytes as Uint8Array);
  }
  return acc.summary();
}
