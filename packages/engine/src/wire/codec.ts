// Decodes OP_MSG and legacy OP_QUERY requests and encodes OP_MSG / OP_REPLY responses.
// Kind-1 document sequences are kept as raw BSON slices so inserts can store them without re-encoding.
import { BSONError, type Document } from 'bson';
import { CommandError, type CodeName } from '../errors.js';
import { InvalidBson, validateBson } from './validate.js';
import { decode, docLength, encode, valueSize } from '../storage/bsonio.js';
import { FRAME_BYTES, withFrameSpace } from './rawbson.js';

const OP_REPLY = 1;
const OP_QUERY = 2004;
export const OP_MSG = 2013;
const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;
/** Flag bits 0-15 must be understood (OP_MSG specification): any but the two above makes the message illegal. */
const REQUIRED_FLAG_BITS = 0xffff;

export interface Request {
  requestId: number;
  opCode: number;
  /** The command document (kind-0 section, or the OP_QUERY query with $query unwrapped). */
  body: Document;
  /** The OP_MSG body's bytes (a view into the message), for a second, type-preserving decode. */
  raw?: Buffer;
  /** Kind-1 sequences by identifier (e.g. documents, updates, deletes), as raw BSON slices. */
  sequences: Map<string, Buffer[]>;
  /** OP_MSG moreToCome: the client expects no reply. */
  moreToCome: boolean;
  /** A well-framed request whose command cannot be run (e.g. an invalid regular expression): answered, not fatal. */
  error?: CommandError;
}

/**
 * Decodes a command document. A BSON regular expression JavaScript cannot compile is a client mistake
 * MongoDB answers with 51091; the message itself is well formed, so the connection stays open.
 */
export function decodeCommand(bytes: Uint8Array): Document {
  try {
    return decode(bytes);
  } catch (e) {
    if (e instanceof SyntaxError && /regular expression/i.test(e.message)) {
      throw new CommandError(
        'Location51091',
        `Regular expression is invalid: ${e.message.replace(/^Invalid regular expression: /, '')}`,
      );
    }
    throw e;
  }
}

/** The length of the document at `at`, which must fit before `end` (at least an empty document's 5 bytes). */
function sectionDocument(msg: Buffer, at: number, end: number): number {
  if (at + 5 > end) throw new InvalidBson('truncated document');
  const len = docLength(msg, at);
  if (len < 5 || at + len > end) throw new InvalidBson('document length outside its section');
  return len;
}

function refused(requestId: number, moreToCome: boolean, error: CommandError): Request {
  return { requestId, opCode: OP_MSG, body: {}, sequences: new Map(), moreToCome, error };
}

function readCString(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at);
  if (end < 0) throw new Error('unterminated cstring');
  return [buf.toString('utf8', at, end), end + 1];
}

export function decodeRequest(msg: Buffer): Request {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_MSG) return decodeOpMsg(msg, requestId);
  if (opCode === OP_QUERY) return decodeOpQuery(msg, requestId);
  throw new Error(`unsupported opCode ${opCode}`);
}

/** A message mongod would refuse as a whole: answered with this error, nothing of it run. */
class RefusedMessage extends Error {
  constructor(
    readonly code: CodeName,
    message: string,
  ) {
    super(message);
  }
}

function decodeOpMsg(msg: Buffer, requestId: number): Request {
  if (msg.length < 21)
    return refused(requestId, false, new CommandError('InvalidBSON', 'OP_MSG too short to hold a section'));
  const flags = msg.readUInt32LE(16);
  const unknown = flags & REQUIRED_FLAG_BITS & ~(CHECKSUM_PRESENT | MORE_TO_COME);
  if (unknown) {
    // Answered even with moreToCome set: a message with flags it cannot understand is refused, not obeyed.
    return refused(
      requestId,
      false,
      new CommandError('IllegalOpMsgFlag', `Message contains illegal flags value: 0x${flags.toString(16)}`),
    );
  }
  const moreToCome = (flags & MORE_TO_COME) !== 0;
  // The CRC-32C trailer, when present, is not verified: loopback TCP already guarantees integrity.
  const end = flags & CHECKSUM_PRESENT ? msg.length - 4 : msg.length;
  let at = 20;
  let body: Document | undefined;
  let error: CommandError | undefined;
  let bodyAt = 0;
  const sequences = new Map<string, Buffer[]>();
  // Every document is validated (wire/validate.ts) and every length checked against its section. A message
  // whose lengths do not add up, with a document that is not valid BSON, or with sections mongod refuses
  // (none or two bodies, a repeated sequence, an unknown kind) is answered with the error mongod gives;
  // nothing of the command runs. The message's own length was checked by the framing, so the connection
  // stays usable.
  try {
    while (at < end) {
      const kind = msg[at++];
      if (kind === 0) {
        if (body) throw new RefusedMessage('Location40430', 'Multiple body sections in message');
        const len = sectionDocument(msg, at, end);
        bodyAt = at;
        const bytes = msg.subarray(at, at + len);
        validateBson(bytes);
        try {
          body = decodeCommand(bytes);
        } catch (e) {
          if (BSONError.isBSONError(e)) throw new InvalidBson(e.message);
          if (!(e instanceof CommandError)) throw e;
          body = {};
          error = e;
        }
        at += len;
      } else if (kind === 1) {
        if (at + 4 > end) throw new InvalidBson('truncated document sequence');
        const size = msg.readInt32LE(at);
        const stop = at + size;
        if (size < 5 || stop > end) throw new InvalidBson('document sequence length outside the message');
        const idEnd = msg.indexOf(0, at + 4);
        if (idEnd < 0 || idEnd >= stop) throw new InvalidBson('unterminated document sequence identifier');
        const id = msg.toString('utf8', at + 4, idEnd);
        if (sequences.has(id)) throw new RefusedMessage('Location40431', `Duplicate document sequence: ${id}`);
        const docs: Buffer[] = [];
        for (let p = idEnd + 1; p < stop;) {
          const len = sectionDocument(msg, p, stop);
          const doc = msg.subarray(p, p + len);
          validateBson(doc);
          docs.push(doc);
          p += len;
        }
        sequences.set(id, docs);
        at = stop;
      } else {
        throw new RefusedMessage('Location40432', `Unknown section kind ${String(kind)}`);
      }
    }
    if (!body) throw new RefusedMessage('Location40587', 'OP_MSG messages must have a body');
  } catch (e) {
    if (e instanceof InvalidBson)
      return refused(requestId, moreToCome, new CommandError('InvalidBSON', `invalid BSON in OP_MSG: ${e.message}`));
    if (e instanceof RefusedMessage) return refused(requestId, moreToCome, new CommandError(e.code, e.message));
    throw e;
  }
  // An insert whose documents are in the body (not a kind-1 sequence) is stored from their raw bytes too,
  // so numeric types (int64, integral doubles) survive as sent.
  if (!error && Object.keys(body)[0] === 'insert' && Array.isArray(body.documents) && !sequences.has('documents')) {
    const docs = rawArrayDocuments(msg, bodyAt, 'documents');
    if (docs && docs.length === body.documents.length) sequences.set('documents', docs);
  }
  const raw = error ? undefined : msg.subarray(bodyAt, bodyAt + docLength(msg, bodyAt));
  return { requestId, opCode: OP_MSG, body, raw, sequences, moreToCome: (flags & MORE_TO_COME) !== 0, error };
}

/** Raw slices of the sub-documents of the top-level array `field` of the document at `at`, or undefined. */
function rawArrayDocuments(bytes: Buffer, at: number, field: string): Buffer[] | undefined {
  const end = at + docLength(bytes, at) - 1;
  for (let p = at + 4; p < end;) {
    const type = bytes[p]!;
    const [name, valueAt] = readCString(bytes, p + 1);
    const size = valueSize(bytes, type, valueAt);
    if (size < 0) return undefined;
    if (name === field && type === 0x04) {
      const out: Buffer[] = [];
      const stop = valueAt + size - 1;
      for (let q = valueAt + 4; q < stop;) {
        const t = bytes[q]!;
        const [, docAt] = readCString(bytes, q + 1);
        if (t !== 0x03) return undefined;
        const len = docLength(bytes, docAt);
        out.push(bytes.subarray(docAt, docAt + len));
        q = docAt + len;
      }
      return out;
    }
    p = valueAt + size;
  }
  return undefined;
}

function decodeOpQuery(msg: Buffer, requestId: number): Request {
  const [ns, after] = readCString(msg, 20);
  const at = after + 8; // numberToSkip, numberToReturn
  let body = decode(msg.subarray(at, at + docLength(msg, at)));
  if (body.$query && typeof body.$query === 'object') body = body.$query as Document;
  const db = ns.endsWith('.$cmd') ? ns.slice(0, -5) : ns;
  return { requestId, opCode: OP_QUERY, body: { ...body, $db: db }, sequences: new Map(), moreToCome: false };
}

let nextId = 1;

/** Writes a message header at the start of `out`. */
function header(out: Buffer, total: number, responseTo: number, opCode: number): void {
  out.writeInt32LE(total, 0);
  out.writeInt32LE(nextId, 4);
  nextId = (nextId + 1) & 0x7fffffff;
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(opCode, 12);
}

/** Frames in place an OP_MSG reply built after FRAME_BYTES of free space (`out` is the whole message). */
export function frameOpMsg(out: Buffer, responseTo: number): Buffer {
  header(out, out.length, responseTo, OP_MSG);
  out.fill(0, 16, FRAME_BYTES); // flag bits, section kind 0
  return out;
}

/** A reply body: a document to serialise, or already-encoded BSON bytes. */
export type ReplyBody = Document | Buffer;

/**
 * The whole reply message in one buffer (one socket write; small replies come from Node's buffer pool rather
 * than an allocation per part). A hand-built cursor reply is framed in place, without a copy.
 */
export function encodeReply(req: Request, reply: ReplyBody): Buffer {
  const framed = req.opCode === OP_MSG && Buffer.isBuffer(reply) ? withFrameSpace(reply) : undefined;
  if (framed) return frameOpMsg(framed, req.requestId);
  const bytes = Buffer.isBuffer(reply) ? reply : encode(reply);
  // OP_REPLY: responseFlags, cursorId, startingFrom, numberReturned (1). OP_MSG: flagBits 0, section kind 0.
  const pre = req.opCode === OP_QUERY ? 20 : 5;
  const out = Buffer.allocUnsafe(16 + pre + bytes.length);
  header(out, out.length, req.requestId, req.opCode === OP_QUERY ? OP_REPLY : OP_MSG);
  out.fill(0, 16, 16 + pre);
  if (req.opCode === OP_QUERY) out.writeInt32LE(1, 32);
  bytes.copy(out, 16 + pre);
  return out;
}
