// mongodump's .bson files: documents back to back, each framed by its own 4-byte little-endian length.
// The reader frames by that prefix (the only hand-written part: bson has no streaming reader) and hands
// each document to `bson` to check; anything malformed is a DumpFormatError naming the file and the offset.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
// The driver's own copy of bson (CommonJS): values it decodes are instances of these classes.
import { BSON, type Document } from 'mongodb';
import { DumpFormatError } from './errors.js';

/** MongoDB's largest internal document (16 MiB plus 16 KiB of headroom), what mongorestore accepts. */
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024 + 16 * 1024;
const MIN_DOCUMENT_BYTES = 5;

/** How documents are decoded for writing back: numbers keep their BSON type, so bytes round-trip. */
export const EXACT_TYPES = { promoteValues: false, bsonRegExp: true } as const;

export interface FramedDocument {
  bytes: Buffer;
  /** Byte offset of the document in the file (in the decompressed stream for .gz files). */
  offset: number;
}

/**
 * Yields every document of a .bson (or .bson.gz) file; throws DumpFormatError on the first bad one. The
 * framing is always checked; `validate: false` leaves decoding each document to the caller.
 */
export async function* readBsonFile(
  file: string,
  gzip: boolean,
  opts: { validate?: boolean } = {},
): AsyncGenerator<FramedDocument> {
  const validate = opts.validate ?? true;
  const raw = createReadStream(file);
  const source: Readable = gzip ? raw.pipe(createGunzip()) : raw;
  if (gzip) raw.on('error', (err) => source.destroy(err));
  const where = gzip ? ' of the decompressed stream' : '';
  let pending: Buffer = Buffer.alloc(0);
  let base = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      while (pending.length - at >= 4) {
        const size = pending.readInt32LE(at);
        if (size < MIN_DOCUMENT_BYTES || size > MAX_DOCUMENT_BYTES) {
          throw new DumpFormatError(
            file,
            base + at,
            `bad document length prefix ${size}${where} (a BSON document is ${MIN_DOCUMENT_BYTES} to ${MAX_DOCUMENT_BYTES} bytes)`,
          );
        }
        if (pending.length - at < size) break;
        const bytes = pending.subarray(at, at + size);
        if (validate) check(bytes, file, base + at, where);
        yield { bytes, offset: base + at };
        at += size;
      }
      base += at;
      pending = pending.subarray(at);
    }
  } catch (err) {
    if (err instanceof DumpFormatError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES')
      throw new DumpFormatError(file, undefined, `cannot read the file (${code})`);
    throw new DumpFormatError(file, base, `not a readable ${gzip ? 'gzip' : 'BSON'} stream: ${(err as Error).message}`);
  } finally {
    source.destroy();
    raw.destroy();
  }
  if (pending.length > 0) {
    const declared = pending.length >= 4 ? `a document of ${pending.readInt32LE(0)} bytes` : 'a length prefix';
    throw new DumpFormatError(file, base, `truncated: the file ends ${pending.length} bytes into ${declared}${where}`);
  }
}

function check(bytes: Buffer, file: string, offset: number, where: string): void {
  if (bytes[bytes.length - 1] !== 0)
    throw new DumpFormatError(
      file,
      offset,
      `the document does not end with a 0 byte where its length prefix says${where}`,
    );
  try {
    BSON.deserialize(bytes, { ...EXACT_TYPES, validation: { utf8: true } });
  } catch (err) {
    throw new DumpFormatError(file, offset, `not a valid BSON document${where}: ${(err as Error).message}`);
  }
}

/** Decodes a checked document for writing, keeping every value's BSON type. */
export function decodeExact(bytes: Buffer): Document {
  return BSON.deserialize(bytes, EXACT_TYPES);
}
