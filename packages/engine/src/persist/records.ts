// On-disk framing of the engine's former storage format (operation log + snapshot), kept to migrate such
// data directories into LMDB (legacy.ts).
//   record  = u32 payloadLength | u32 crc32(payload) | payload
//   payload = entry*
//   entry   = u8 kind | u16 dbLen | db | u16 collLen | coll | u32 bodyLen | body (BSON)
// A record whose length runs past the end of the file or whose checksum fails is a torn write: reading
// stops there and everything before it is trusted.
import { closeSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** Entry kinds: idempotent "make it so" operations. */
export const EntryKind = {
  Put: 1,
  Delete: 2,
  CreateCollection: 3,
  DropCollection: 4,
  CreateIndex: 5,
  DropIndex: 6,
  DropDatabase: 7,
} as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];
/** Snapshot header (first log generation not contained) and end marker. */
export const HEADER_KIND = 100;
export const END_KIND = 101;
export const SNAPSHOT_FILE = 'snapshot.bin';

export interface Entry {
  kind: EntryKind | number;
  db: string;
  coll: string;
  body: Buffer;
}

export function encodeEntry(kind: number, db: string, coll: string, body: Uint8Array): Buffer {
  const dbB = Buffer.from(db, 'utf8');
  const collB = Buffer.from(coll, 'utf8');
  const out = Buffer.allocUnsafe(1 + 2 + dbB.length + 2 + collB.length + 4 + body.length);
  let p = out.writeUInt8(kind, 0);
  p = out.writeUInt16LE(dbB.length, p);
  p += dbB.copy(out, p);
  p = out.writeUInt16LE(collB.length, p);
  p += collB.copy(out, p);
  p = out.writeUInt32LE(body.length, p);
  out.set(body, p);
  return out;
}

export function* decodeEntries(payload: Buffer): Generator<Entry> {
  let p = 0;
  while (p < payload.length) {
    const kind = payload.readUInt8(p);
    const dbLen = payload.readUInt16LE(p + 1);
    const db = payload.toString('utf8', p + 3, p + 3 + dbLen);
    p += 3 + dbLen;
    const collLen = payload.readUInt16LE(p);
    const coll = payload.toString('utf8', p + 2, p + 2 + collLen);
    p += 2 + collLen;
    const bodyLen = payload.readUInt32LE(p);
    const body = payload.subarray(p + 4, p + 4 + bodyLen);
    p += 4 + bodyLen;
    yield { kind, db, coll, body };
  }
}

export function frameRecord(entries: Buffer[]): Buffer {
  const payload = entries.length === 1 ? entries[0]! : Buffer.concat(entries);
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

export interface ReadResult {
  records: number;
  /** Offset just past the last intact record. */
  validBytes: number;
  /** True when bytes after the last intact record were ignored (torn or corrupt tail). */
  torn: boolean;
}

/** Streams intact records of a file to `onRecord` without loading the whole file. */
export function readRecords(path: string, onRecord: (payload: Buffer) => void): ReadResult {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(8 << 20);
    let start = 0;
    let end = 0;
    let fileOffset = 0;
    let records = 0;
    let validBytes = 0;
    let eof = false;
    const fill = (need: number): boolean => {
      while (end - start < need && !eof) {
        if (start > 0) {
          buf.copy(buf, 0, start, end);
          end -= start;
          start = 0;
        }
        if (need > buf.length) {
          const bigger = Buffer.allocUnsafe(Math.max(need, buf.length * 2));
          buf.copy(bigger, 0, 0, end);
          buf = bigger;
        }
        const n = readSync(fd, buf, end, buf.length - end, fileOffset);
        if (n === 0) eof = true;
        end += n;
        fileOffset += n;
      }
      return end - start >= need;
    };
    for (;;) {
      if (!fill(8)) break;
      const len = buf.readUInt32LE(start);
      const sum = buf.readUInt32LE(start + 4);
      if (!fill(8 + len)) break;
      const payload = buf.subarray(start + 8, start + 8 + len);
      if (crc32(payload) !== sum) break;
      onRecord(payload);
      records++;
      start += 8 + len;
      validBytes += 8 + len;
    }
    return { records, validBytes, torn: end - start > 0 || !eof };
  } finally {
    closeSync(fd);
  }
}
