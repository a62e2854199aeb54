// Key-space helpers over lmdb databases: id prefixes, the end of a prefix, and ranges read in chunks.
import type { Database } from 'lmdb';

export function u32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n, 0);
  return b;
}

/** The smallest key greater than every key starting with `prefix` (prefix's last byte < 0xff). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  let i = end.length - 1;
  while (i >= 0 && end[i] === 0xff) i--;
  if (i < 0) throw new Error('no key follows an all-0xff prefix');
  end[i]!++;
  return end.subarray(0, i + 1);
}

/** Keys in [start, end), in chunks (no read transaction stays open between chunks, so a lazily consumed
 *  range survives writes between cursor batches and never pins old pages). */
export function* keyRange(
  db: Database<Buffer, Buffer>,
  start: Buffer,
  end: Buffer,
  backward = false,
  chunk = 512,
): Generator<Buffer> {
  if (Buffer.compare(start, end) >= 0) return;
  if (!backward) {
    let from = start;
    for (;;) {
      const keys = [...db.getKeys({ start: from, end, limit: chunk })] as Buffer[];
      yield* keys;
      if (keys.length < chunk) return;
      from = Buffer.concat([keys[keys.length - 1]!, ZERO]);
    }
  }
  // Backward: lmdb's reverse range includes its start and excludes its end, the opposite of [start, end);
  // the bound it is given is the 4-byte id prefix, which is never a key, and `start` is checked here.
  const floor = start.subarray(0, 4);
  let from = end;
  for (;;) {
    const keys = [...db.getKeys({ start: from, end: floor, reverse: true, limit: chunk })] as Buffer[];
    for (const k of keys) {
      if (k.equals(from)) continue;
      if (Buffer.compare(k, start) < 0) return;
      yield k;
    }
    if (keys.length < chunk) return;
    from = keys[keys.length - 1]!;
  }
}

/** Entries (key, value) in [start, end), in chunks, as keyRange. */
export function* keyValueRange(
  db: Database<Buffer, Buffer>,
  start: Buffer,
  end: Buffer,
  backward = false,
  chunk = 512,
): Generator<[Buffer, Buffer]> {
  if (Buffer.compare(start, end) >= 0) return;
  if (!backward) {
    let from = start;
    for (;;) {
      const entries = [...db.getRange({ start: from, end, limit: chunk })];
      for (const { key, value } of entries) yield [key, value];
      if (entries.length < chunk) return;
      from = Buffer.concat([entries[entries.length - 1]!.key, ZERO]);
    }
  }
  const floor = start.subarray(0, 4);
  let from = end;
  for (;;) {
    const entries = [...db.getRange({ start: from, end: floor, reverse: true, limit: chunk })];
    for (const { key, value } of entries) {
      if (key.equals(from)) continue;
      if (Buffer.compare(key, start) < 0) return;
      yield [key, value];
    }
    if (entries.length < chunk) return;
    from = entries[entries.length - 1]!.key;
  }
}

const ZERO = Buffer.from([0]);
