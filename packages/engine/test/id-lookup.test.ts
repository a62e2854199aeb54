// A find by `_id` as the driver's findOne writes it is recognised in the request's bytes and answered without
// decoding the command (wire/idLookup.ts, commands/findById.ts findByIdLookup). Its replies must be the general
// path's byte for byte: the same request with a `comment` (which find ignores, and which the recogniser does not
// accept) goes through the full decode and the command layer, and both replies must be identical but for the
// header's own request id. Anything unusual must fall back and be answered (or refused, with MongoDB's error) as
// before.
import { Binary, Double, Int32, ObjectId, deserialize, serialize, type Document } from 'bson';
import { idLookupRequest } from '../src/wire/idLookup.js';
import { exchange, exchangeRaw, opMsg } from './helpers/raw-wire.js';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let dbName: string;

const oid = new ObjectId();
const lsid = { id: new Binary(Buffer.alloc(16, 7), 4) };

beforeAll(async () => {
  ctx = await openTestDb('id-lookup');
  const db = ctx.db;
  dbName = db.databaseName;
  await db.collection('things').insertMany([
    { _id: oid, kind: 'objectId', n: 1 },
    { _id: 'slug-a', kind: 'string', nested: { a: [1, { b: 'c' }] } },
    { _id: new Int32(7), kind: 'int32' },
    { _id: 'é-accent', kind: 'utf8' },
  ] as Document[]);
  await db.createCollection('capped', { capped: true, size: 100_000 });
  await db.collection('capped').insertOne({ _id: 'c1' as unknown as ObjectId, kind: 'capped' });
  await db.createCollection('things_view', { viewOn: 'things', pipeline: [{ $match: { kind: { $ne: 'string' } } }] });
});
afterAll(async () => ctx.close());

/** What findOne sends, in the driver's field order. */
const findOne = (coll: string, id: unknown, extra: Document = {}): Document => ({
  find: coll,
  filter: { _id: id },
  limit: 1,
  singleBatch: true,
  lsid,
  $db: dbName,
  ...extra,
});

/** The reply but for its own request id and the request it answers (bytes 4–12 of the header). */
const sameParts = (reply: Buffer): Buffer => Buffer.concat([reply.subarray(0, 4), reply.subarray(12)]);

/** Sends `body` as is and with a comment (the general path); both replies, which must be the same. */
async function bothPaths(body: Document): Promise<Document> {
  const [quick, general] = await exchangeRaw([opMsg(1, body), opMsg(2, { ...body, comment: 'general path' })]);
  expect(quick!.readInt32LE(8)).toBe(1);
  expect(sameParts(quick!)).toEqual(sameParts(general!));
  const [[, doc]] = await exchange([opMsg(3, body)]);
  return doc!;
}

describe('find by _id from the request bytes', () => {
  it.each([
    ['an ObjectId', 'things', oid, 'objectId'],
    ['a string', 'things', 'slug-a', 'string'],
    ['a non-ASCII string', 'things', 'é-accent', 'utf8'],
    ['an int32', 'things', 7, 'int32'],
    ['a capped collection', 'capped', 'c1', 'capped'],
  ])('answers %s _id with the general path bytes', async (_, coll, id, kind) => {
    expect(idLookupRequest(opMsg(1, findOne(coll, id)))).toEqual({ db: dbName, collection: coll, id });
    const reply = await bothPaths(findOne(coll, id));
    expect(reply.cursor.firstBatch.map((d: Document) => d.kind)).toEqual([kind]);
    expect(reply.cursor.ns).toBe(`${dbName}.${coll}`);
  });

  it.each([
    ['a missing ObjectId', 'things', new ObjectId()],
    ['a missing string', 'things', 'slug-b'],
    ['a missing int32', 'things', 8],
    ['a missing collection', 'nothing_here', oid],
    ['a view', 'things_view', 'slug-a'],
  ])('answers %s with an empty batch, as the general path does', async (_, coll, id) => {
    expect((await bothPaths(findOne(coll, id))).cursor.firstBatch).toEqual([]);
  });

  it('accepts the options findOne and find send, each once', async () => {
    for (const extra of [{ batchSize: 1 }, { skip: 0 }, { limit: -1, singleBatch: false }, { limit: 0 }]) {
      expect(idLookupRequest(opMsg(1, findOne('things', 'slug-a', extra)))).toBeDefined();
      expect((await bothPaths(findOne('things', 'slug-a', extra))).cursor.firstBatch).toHaveLength(1);
    }
    const bare = { find: 'things', filter: { _id: 'slug-a' }, $db: dbName };
    expect(idLookupRequest(opMsg(1, bare))).toBeDefined();
    expect((await bothPaths(bare)).cursor.firstBatch).toHaveLength(1);
  });

  it('leaves every other request to the general path, which answers it as before', async () => {
    const others: Array<[Document, string[]]> = [
      [findOne('things', 2.5), []],
      [findOne('things', null), []],
      [findOne('things', { $eq: 'slug-a' }), ['string']],
      [findOne('things', new Date(0)), []],
      [{ ...findOne('things', 'slug-a'), projection: { kind: 1 } }, ['string']],
      [{ ...findOne('things', 'slug-a'), skip: 1 }, []],
      [{ ...findOne('things', 'slug-a'), batchSize: 0 }, []], // the document comes with the getMore
      [{ ...findOne('things', 'slug-a'), sort: { kind: 1 } }, ['string']],
      [{ ...findOne('things', 'SLUG-A'), collation: { locale: 'en', strength: 2 } }, ['string']],
      [{ ...findOne('things', 'slug-a'), lsid: { id: new Binary(Buffer.alloc(16), 4), extra: 1 } }, ['string']],
      [{ ...findOne('things', 'slug-a'), filter: { _id: 'slug-a', kind: 'string' } }, ['string']],
      [{ ...findOne('things', 'slug-a'), singleBatch: 1 }, ['string']],
      [{ ...findOne('things', 'slug-a'), limit: new Int32(1), batchSize: new Double(1) }, ['string']],
      // Without $db the general path reads the admin database, where there is no such collection.
      [{ find: 'things', filter: { _id: 'slug-a' } }, []],
    ];
    for (const [body] of others) expect(idLookupRequest(opMsg(1, body))).toBeUndefined();
    const replies = await exchange(others.map(([b], i) => opMsg(10 + i, b)));
    expect(replies.map(([, r]) => r.cursor?.firstBatch.map((d: Document) => d.kind) ?? r.errmsg)).toEqual(
      others.map(([, kinds]) => kinds),
    );
  });

  it('refuses bad input with MongoDB errors, never an internal error', async () => {
    const bad: Array<[Document, string]> = [
      [{ ...findOne('things', 'slug-a'), batchSize: -1 }, 'BadValue'],
      [{ ...findOne('things', 'slug-a'), skip: -1 }, 'BadValue'],
      [{ ...findOne('things', 'slug-a'), limit: true }, 'TypeMismatch'],
      [findOne('', 'slug-a'), 'InvalidNamespace'],
      [{ ...findOne('things', 'slug-a'), find: 5 }, 'InvalidNamespace'],
      [{ filter: { _id: 'slug-a' }, find: 'things', $db: dbName }, 'CommandNotFound'],
      [{ ...findOne('things', 'slug-a'), txnNumber: 1 }, 'IllegalOperation'],
    ];
    for (const [body] of bad) expect(idLookupRequest(opMsg(1, body))).toBeUndefined();
    const replies = await exchange(bad.map(([b], i) => opMsg(20 + i, b)));
    expect(replies.map(([, r]) => r.codeName)).toEqual(bad.map(([, code]) => code));
    expect(replies.every(([, r]) => r.ok === 0)).toBe(true);
  });
});

describe('unusual bytes fall back', () => {
  /** The OP_MSG of findOne's body with its bytes changed by `edit` (offsets in the body document). */
  const edited = (body: Document, edit: (doc: Buffer) => Buffer): Buffer => {
    const doc = edit(Buffer.from(serialize(body)));
    const out = Buffer.alloc(21 + doc.length);
    out.writeInt32LE(out.length, 0);
    out.writeInt32LE(2013, 12);
    out.set(doc, 21);
    return out;
  };

  it('answers a repeated field as the decoder reads it (the last one), never from the first', async () => {
    // {find, filter: {_id: 'slug-b'}, filter: {_id: 'slug-a'}, $db}: two filters, the second wins.
    const first = Buffer.from(serialize({ filter: { _id: 'slug-b' } })).subarray(4, -1);
    const msg = edited(findOne('things', 'slug-a'), (doc) => {
      const at = doc.indexOf(Buffer.from('\x03filter\0', 'latin1'));
      const out = Buffer.concat([doc.subarray(0, at), first, doc.subarray(at)]);
      out.writeInt32LE(out.length, 0);
      return out;
    });
    expect(idLookupRequest(msg)).toBeUndefined();
    const [[, reply]] = await exchange([msg]);
    expect(reply!.cursor.firstBatch.map((d: Document) => d.kind)).toEqual(['string']);
  });

  it('answers a checksummed message through the general path', async () => {
    const plain = opMsg(1, findOne('things', 'slug-a'));
    const msg = Buffer.concat([plain, Buffer.alloc(4)]);
    msg.writeInt32LE(msg.length, 0);
    msg.writeUInt32LE(1, 16); // checksumPresent (the engine does not verify it)
    expect(idLookupRequest(msg)).toBeUndefined();
    const [[, reply]] = await exchange([msg]);
    expect(reply!.cursor.firstBatch.map((d: Document) => d.kind)).toEqual(['string']);
  });

  it('does not recognise malformed or truncated bodies (the general path closes the connection, as before)', () => {
    const good = opMsg(1, findOne('things', 'slug-a'));
    expect(idLookupRequest(good)).toBeDefined();
    const variants: Buffer[] = [];
    for (let cut = 21; cut < good.length; cut++) {
      const short = Buffer.from(good.subarray(0, cut));
      short.writeInt32LE(short.length, 0);
      variants.push(short);
    }
    for (let i = 21; i < good.length; i++) {
      for (const b of [0x00, 0x01, 0x7f, 0xff]) {
        const v = Buffer.from(good);
        if (v[i] === b) continue;
        v[i] = b;
        variants.push(v);
      }
    }
    // Invalid UTF-8 in the _id string.
    variants.push(
      edited(findOne('things', 'slug-a'), (doc) =>
        Buffer.from(doc.toString('latin1').replace('slug-a', 'slug\xff\xfe'), 'latin1'),
      ),
    );
    for (const v of variants) {
      const found = idLookupRequest(v);
      // A changed byte may still spell a well-formed findOne (another id, name or flag value): then it must say so exactly.
      if (found) expect(found).toEqual(idLookupRequest(opMsg(1, decodeFindOne(v))));
    }
    expect(idLookupRequest(variants.at(-1)!)).toBeUndefined();
  });
});

/** The body of an OP_MSG as the decoder reads it, to check a recognised mutation against a clean message of the same command. */
function decodeFindOne(msg: Buffer): Document {
  return deserialize(msg.subarray(21));
}
