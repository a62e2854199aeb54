// Recognises, in a request's bytes, the one command the service sends most: a find by `_id` as the driver's
// findOne writes it, `{find, filter: {_id: <ObjectId | string | int32>}, limit?, singleBatch?, batchSize?, skip: 0?,
// lsid?, $db}` in an OP_MSG of one body section and no flags. Anything else, or anything unusual in it (another
// field, another type, a repeated field, a length that does not add up, a string that is not UTF-8), is not
// recognised and goes through the full decode and the general command path, which answers or refuses it as
// before. Parsing by hand rather than with bson's decoder avoids building the whole command (the session id,
// every field) for a request answered by one get.
import { isUtf8 } from 'node:buffer';
import { ObjectId } from 'bson';
import { OP_MSG } from './codec.js';

export interface IdLookup {
  db: string;
  collection: string;
  /** The `_id` as the general path's decode gives it (an ObjectId, a string, an int32 as a number). */
  id: ObjectId | string | number;
}

const HEADER = 16;
const BODY_AT = HEADER + 4 + 1; // header, flag bits, section kind 0

const T_STRING = 0x02;
const T_DOCUMENT = 0x03;
const T_BINARY = 0x05;
const T_OBJECT_ID = 0x07;
const T_BOOLEAN = 0x08;
const T_INT32 = 0x10;

// Each recognised field once: a repeated one (the decoder keeps the last) is left to the general path.
const FIND = 1;
const FILTER = 2;
const LIMIT = 4;
const SINGLE_BATCH = 8;
const BATCH_SIZE = 16;
const SKIP = 32;
const LSID = 64;
const DB = 128;

/** Element names with their terminating 0, compared byte by byte (no string made per field). */
const name = (s: string): Buffer => Buffer.from(`${s}\0`, 'latin1');
const N_FIND = name('find');
const N_DB = name('$db');
const N_FILTER = name('filter');
const N_LSID = name('lsid');
const N_LIMIT = name('limit');
const N_BATCH_SIZE = name('batchSize');
const N_SKIP = name('skip');
const N_SINGLE_BATCH = name('singleBatch');

function nameIs(msg: Buffer, at: number, n: Buffer): boolean {
  for (let i = 0; i < n.length; i++) if (msg[at + i] !== n[i]) return false;
  return true;
}

/**
 * The last collection and database names read, kept with their bytes: requests name the same few, so the
 * string is made (and its bytes checked) once rather than per request.
 */
class NameCache {
  private bytes = Buffer.alloc(0);
  private value = '';

  /** The string value at `at` (int32 length including the terminating 0), if it is well formed, UTF-8 and has no 0 inside. */
  read(msg: Buffer, at: number, end: number): string | undefined {
    if (at + 4 > end) return undefined;
    const len = msg.readInt32LE(at);
    const stop = at + 4 + len - 1; // the terminating 0
    if (len < 1 || stop >= end || msg[stop] !== 0) return undefined;
    if (this.bytes.length === len - 1 && this.bytes.compare(msg, at + 4, stop) === 0) return this.value;
    const s = stringAt(msg, at, end);
    if (s !== undefined) [this.bytes, this.value] = [Buffer.from(msg.subarray(at + 4, stop)), s];
    return s;
  }
}
const collectionNames = new NameCache();
const dbNames = new NameCache();

/** The string value at `at` (int32 length including the terminating 0), if it is well formed, UTF-8 and has no 0 inside. */
function stringAt(msg: Buffer, at: number, end: number): string | undefined {
  if (at + 4 > end) return undefined;
  const len = msg.readInt32LE(at);
  const stop = at + 4 + len - 1; // the terminating 0
  if (len < 1 || stop >= end || msg[stop] !== 0) return undefined;
  const bytes = msg.subarray(at + 4, stop);
  if (bytes.includes(0) || !isUtf8(bytes)) return undefined;
  return bytes.toString('utf8');
}

/** `{_id: <value>}` at `at` (exactly that one field) and its value, or undefined. */
function idFilterAt(msg: Buffer, at: number, size: number): IdLookup['id'] | undefined {
  // length, type, "_id\0", value, terminating 0
  if (
    msg[at + 5] !== 0x5f ||
    msg[at + 6] !== 0x69 ||
    msg[at + 7] !== 0x64 ||
    msg[at + 8] !== 0 ||
    msg[at + size - 1] !== 0
  )
    return undefined;
  const v = at + 9;
  switch (msg[at + 4]) {
    case T_OBJECT_ID:
      return size === 9 + 12 + 1 ? new ObjectId(msg.subarray(v, v + 12)) : undefined;
    case T_INT32:
      return size === 9 + 4 + 1 ? msg.readInt32LE(v) : undefined;
    case T_STRING: {
      const s = stringAt(msg, v, at + size - 1);
      return s !== undefined && size === 9 + 4 + msg.readInt32LE(v) + 1 ? s : undefined;
    }
    default:
      return undefined;
  }
}

/** A session id as the driver sends it, `{id: <16-byte UUID, subtype 4>}`, nothing else. */
function isSessionId(msg: Buffer, at: number, size: number): boolean {
  // length, type, "id\0", binary length 16, subtype 4, 16 bytes, terminating 0
  return (
    size === 4 + 1 + 3 + 4 + 1 + 16 + 1 &&
    msg[at + 4] === T_BINARY &&
    msg[at + 5] === 0x69 &&
    msg[at + 6] === 0x64 &&
    msg[at + 7] === 0 &&
    msg.readInt32LE(at + 8) === 16 &&
    msg[at + 12] === 4 &&
    msg[at + size - 1] === 0
  );
}

/** The find by `_id` an OP_MSG message asks for, or undefined when it is anything else (see the header). */
export function idLookupRequest(msg: Buffer): IdLookup | undefined {
  if (msg.length < BODY_AT + 5 || msg.readInt32LE(12) !== OP_MSG || msg.readUInt32LE(16) !== 0 || msg[20] !== 0)
    return undefined;
  const end = msg.length - 1; // the body's terminating 0
  if (msg.readInt32LE(BODY_AT) !== msg.length - BODY_AT || msg[end] !== 0) return undefined;
  let seen = 0;
  let db: string | undefined;
  let collection: string | undefined;
  let id: IdLookup['id'] | undefined;
  for (let p = BODY_AT + 4; p < end;) {
    const type = msg[p++]!; // p: the element's name
    let field = 0;
    let v = 0; // where the value starts
    let size = 0;
    if (type === T_STRING) {
      if (seen === 0 && nameIs(msg, p, N_FIND)) {
        field = FIND;
        v = p + N_FIND.length;
        collection = collectionNames.read(msg, v, end);
        if (!collection) return undefined;
      } else if (nameIs(msg, p, N_DB)) {
        field = DB;
        v = p + N_DB.length;
        db = dbNames.read(msg, v, end);
        if (!db) return undefined;
      } else return undefined;
      size = 4 + msg.readInt32LE(v);
    } else if (type === T_DOCUMENT) {
      if (nameIs(msg, p, N_FILTER)) {
        field = FILTER;
        v = p + N_FILTER.length;
      } else if (nameIs(msg, p, N_LSID)) {
        field = LSID;
        v = p + N_LSID.length;
      } else return undefined;
      if (v + 5 > end) return undefined;
      size = msg.readInt32LE(v);
      if (size < 5 || v + size > end) return undefined;
      if (field === FILTER) {
        id = idFilterAt(msg, v, size);
        if (id === undefined) return undefined;
      } else if (!isSessionId(msg, v, size)) return undefined;
    } else if (type === T_INT32) {
      size = 4;
      if (nameIs(msg, p, N_LIMIT)) field = LIMIT;
      else if (nameIs(msg, p, N_BATCH_SIZE)) field = BATCH_SIZE;
      else if (nameIs(msg, p, N_SKIP)) field = SKIP;
      else return undefined;
      v = p + (field === LIMIT ? N_LIMIT : field === SKIP ? N_SKIP : N_BATCH_SIZE).length;
      if (v + size > end) return undefined;
      const n = msg.readInt32LE(v);
      if ((field === BATCH_SIZE && n <= 0) || (field === SKIP && n !== 0)) return undefined;
    } else if (type === T_BOOLEAN && nameIs(msg, p, N_SINGLE_BATCH)) {
      field = SINGLE_BATCH;
      v = p + N_SINGLE_BATCH.length;
      size = 1;
      if (v >= end || msg[v]! > 1) return undefined;
    } else {
      return undefined;
    }
    if (seen & field || (seen === 0 && field !== FIND)) return undefined;
    seen |= field;
    p = v + size;
    if (p > end) return undefined;
  }
  if (!(seen & FIND) || !(seen & FILTER) || db === undefined || collection === undefined || id === undefined)
    return undefined;
  return { db, collection, id };
}
