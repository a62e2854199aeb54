// MongoDB's BSON corpus (specification `bson-corpus`, vendored unchanged in spec/bson-corpus/) sent to the
// engine as raw bytes, the way any client's documents reach it:
// - every valid case's canonical document, stored with an `_id` and read back, must come back byte for byte
//   (the engine keeps documents as BSON and must not re-encode a value it does not understand);
// - every decode-error case must be refused with InvalidBSON, store nothing, and leave the connection and
//   the engine serving (before, some of them made the engine loop until it ran out of memory).
// Raw sockets (test/helpers/raw-wire.ts), because the driver would decode and re-encode the documents.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize, type Document } from 'bson';
import { exchangeRaw } from './helpers/raw-wire.js';
import { openTestDb } from './helpers/db.js';

interface Corpus {
  description: string;
  valid?: { description: string; canonical_bson: string }[];
  decodeErrors?: { description: string; bson: string }[];
}

const DIR = join(import.meta.dirname, 'spec', 'bson-corpus');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Corpus] as const);

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let dbName: string;
beforeAll(async () => {
  ctx = await openTestDb('bsoncorpus');
  dbName = ctx.db.databaseName;
});
afterAll(async () => ctx.close());

const OP_MSG = 2013;

/** An OP_MSG with a body section and one document sequence (kind 1) holding `docs` as raw bytes. */
function opMsgWithSequence(requestId: number, body: Document, id: string, docs: Buffer[]): Buffer {
  const head = serialize(body);
  const ident = Buffer.from(`${id}\0`, 'utf8');
  const seqLen = 4 + ident.length + docs.reduce((n, d) => n + d.length, 0);
  const total = 16 + 4 + 1 + head.length + 1 + seqLen;
  const out = Buffer.alloc(total);
  out.writeInt32LE(total, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(OP_MSG, 12);
  let at = 21;
  out.set(head, at);
  at += head.length;
  out.writeUInt8(1, at++);
  out.writeInt32LE(seqLen, at);
  at += 4;
  out.set(ident, at);
  at += ident.length;
  for (const d of docs) {
    out.set(d, at);
    at += d.length;
  }
  return out;
}

/** An OP_MSG with one body section. */
function opMsg(requestId: number, body: Document): Buffer {
  const doc = serialize(body);
  const out = Buffer.alloc(21 + doc.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(OP_MSG, 12);
  out.set(doc, 21);
  return out;
}

/** `doc` (raw BSON) with an int32 `_id` element in front of its own elements. */
function withId(doc: Buffer, id: number): Buffer {
  const idElement = Buffer.from([0x10, 0x5f, 0x69, 0x64, 0x00, 0, 0, 0, 0]);
  idElement.writeInt32LE(id, 5);
  const out = Buffer.alloc(doc.length + idElement.length);
  out.writeInt32LE(out.length, 0);
  out.set(idElement, 4);
  out.set(doc.subarray(4), 4 + idElement.length);
  return out;
}

const body = (reply: Buffer): Document => deserialize(reply.subarray(21));

/** The bytes of the embedded document (or array) `name` of the document `doc`, found by walking its elements. */
function embedded(doc: Buffer, name: string): Buffer {
  for (let p = 4; p < doc.length - 1;) {
    const type = doc[p]!;
    const keyEnd = doc.indexOf(0, p + 1);
    const key = doc.toString('utf8', p + 1, keyEnd);
    const at = keyEnd + 1;
    if (type !== 0x03 && type !== 0x04 && type !== 0x10 && type !== 0x12 && type !== 0x02 && type !== 0x01)
      throw new Error(`unexpected type ${type} in a reply`);
    const size =
      type === 0x10
        ? 4
        : type === 0x12 || type === 0x01
          ? 8
          : type === 0x02
            ? 4 + doc.readInt32LE(at)
            : doc.readInt32LE(at);
    if (key === name) return doc.subarray(at, at + size);
    p = at + size;
  }
  throw new Error(`no field ${name}`);
}

/** The raw bytes of the first document of a find reply's firstBatch (without decoding it). */
function firstDocBytes(reply: Buffer): Buffer {
  return embedded(embedded(embedded(reply.subarray(21), 'cursor'), 'firstBatch'), '0');
}

describe.each(files.filter(([, c]) => c.valid?.length))(
  '%s: valid documents come back byte for byte',
  (file, corpus) => {
    const coll = `valid_${file.replace(/\W/g, '_')}`;
    it.each(corpus.valid!.map((v, i) => [v.description, i, v.canonical_bson] as const))('%s', async (_, i, hex) => {
      const sent = withId(Buffer.from(hex, 'hex'), i);
      const [inserted, found] = await exchangeRaw([
        opMsgWithSequence(1, { insert: coll, $db: dbName }, 'documents', [sent]),
        opMsg(2, { find: coll, filter: { _id: i }, $db: dbName }),
      ]);
      expect(body(inserted!)).toMatchObject({ ok: 1, n: 1 });
      expect(firstDocBytes(found!).toString('hex')).toBe(sent.toString('hex'));
    });
  },
);

describe.each(files.filter(([, c]) => c.decodeErrors?.length))('%s: invalid documents are refused', (file, corpus) => {
  const coll = `invalid_${file.replace(/\W/g, '_')}`;
  it.each(corpus.decodeErrors!.map((v) => [v.description, v.bson] as const))('%s', async (_, hex) => {
    const bad = Buffer.from(hex, 'hex');
    // The invalid document as the whole of a document sequence, then a ping on the same connection.
    const [reply, ping] = await exchangeRaw([
      opMsgWithSequence(1, { insert: coll, $db: dbName }, 'documents', [bad]),
      opMsg(2, { ping: 1, $db: dbName }),
    ]);
    // mongod validates every document of the message before running the command: InvalidBSON, nothing run.
    expect(body(reply!)).toMatchObject({ ok: 0, code: 22, codeName: 'InvalidBSON' });
    expect(body(ping!)).toMatchObject({ ok: 1 });
    expect(await ctx.db.collection(coll).countDocuments({})).toBe(0);
  });
});
