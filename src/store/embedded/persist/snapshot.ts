// Snapshots: a full image of the catalog written to a temp file, fsynced and renamed into place, so a
// snapshot on disk is always complete. The first record names the first log generation NOT contained in
// it; the last record marks the end (a snapshot without it is rejected as corrupt).
import { closeSync, fsyncSync, openSync, renameSync, write, fsync, close } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serialize } from 'bson';
import type { Catalog } from '../storage/catalog.js';
import { EntryKind } from '../storage/journal.js';
import { encodeEntry, frameRecord } from './records.js';

export const SNAPSHOT_FILE = 'snapshot.bin';
export const HEADER_KIND = 100;
export const END_KIND = 101;
const RECORD_BYTES = 4 << 20;

const writeAsync = promisify(write);
const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);

interface CollImage {
  db: string;
  name: string;
  options: object;
  indexes: object[];
  docs: Buffer[];
}

/** Captures the catalog synchronously; documents are immutable buffers, so references suffice. */
export function capture(catalog: Catalog): CollImage[] {
  return [...catalog.all()].map((c) => ({
    db: c.dbName,
    name: c.name,
    options: c.options,
    indexes: [...c.indexes.values()].filter((i) => i.name !== '_id_').map((i) => i.spec),
    docs: [...c.docs.values()],
  }));
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the captured image as the new snapshot; returns its size in bytes. */
export async function writeSnapshot(dir: string, image: CollImage[], logGen: number): Promise<number> {
  const tmp = join(dir, `${SNAPSHOT_FILE}.tmp`);
  const fd = openSync(tmp, 'w');
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const out = async (force = false): Promise<void> => {
    if (!pending.length || (!force && pendingBytes < RECORD_BYTES)) return;
    const rec = frameRecord(pending);
    pending = [];
    pendingBytes = 0;
    let off = 0;
    while (off < rec.length) off += (await writeAsync(fd, rec, off, rec.length - off)).bytesWritten;
    size += rec.length;
  };
  const add = async (e: Buffer): Promise<void> => {
    pending.push(e);
    pendingBytes += e.length;
    await out();
  };
  try {
    await add(encodeEntry(HEADER_KIND, '', '', serialize({ format: 'embedded-snapshot', version: 1, logGen })));
    await out(true);
    let count = 0;
    for (const c of image) {
      await add(encodeEntry(EntryKind.CreateCollection, c.db, c.name, serialize({ options: c.options })));
      for (const spec of c.indexes) await add(encodeEntry(EntryKind.CreateIndex, c.db, c.name, serialize({ spec })));
      for (const d of c.docs) {
        await add(encodeEntry(EntryKind.Put, c.db, c.name, d));
        count++;
      }
    }
    await out(true);
    await add(encodeEntry(END_KIND, '', '', serialize({ end: true, count })));
    await out(true);
    await fsyncAsync(fd);
  } finally {
    await closeAsync(fd);
  }
  renameSync(tmp, join(dir, SNAPSHOT_FILE));
  fsyncDir(dir);
  return size;
}
