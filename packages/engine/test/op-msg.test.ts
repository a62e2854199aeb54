// OP_MSG sections as mongod reads them: every document validated (the body as much as a document sequence),
// one body, no repeated sequence, known section kinds; a message that breaks these is answered with mongod's
// error and nothing of it runs, and the connection goes on serving.
import { serialize, type Document } from 'bson';
import { exchange } from './helpers/raw-wire.js';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let dbName: string;
beforeAll(async () => {
  ctx = await openTestDb('opmsg');
  dbName = ctx.db.databaseName;
});
afterAll(async () => ctx.close());

type Section = { body: Buffer } | { id: string; docs: Buffer[] } | { kind: number; bytes: Buffer };

function message(requestId: number, sections: Section[]): Buffer {
  const parts: Buffer[] = [Buffer.alloc(20)];
  for (const s of sections) {
    if ('body' in s) parts.push(Buffer.from([0]), s.body);
    else if ('id' in s) {
      const ident = Buffer.from(`${s.id}\0`);
      const size = Buffer.alloc(4);
      size.writeInt32LE(4 + ident.length + s.docs.reduce((n, d) => n + d.length, 0));
      parts.push(Buffer.from([1]), size, ident, ...s.docs);
    } else parts.push(Buffer.from([s.kind]), s.bytes);
  }
  const out = Buffer.concat(parts);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(2013, 12);
  return out;
}

const bson = (d: Document): Buffer => Buffer.from(serialize(d));
const ping = (): Buffer => message(99, [{ body: bson({ ping: 1, $db: dbName }) }]);

/** Sends `msg` then a ping on the same connection: the answer to `msg`, after checking the ping's. */
async function answer(msg: Buffer): Promise<Document> {
  const replies = await exchange([msg, ping()]);
  const byId = new Map(replies);
  expect(byId.get(99)).toMatchObject({ ok: 1 });
  return byId.get(7) ?? byId.get(8) ?? {};
}

/** `doc` with its first key's bytes replaced by `key` (same length), to carry bytes serialize would not write. */
function withRawKey(doc: Document, from: string, key: Buffer): Buffer {
  const b = bson(doc);
  const at = b.indexOf(Buffer.from(`${from}\0`));
  key.copy(b, at);
  return b;
}

test('a document in the body is validated like one in a sequence', async () => {
  const bad = withRawKey({ _id: 1, ab: 1 }, 'ab', Buffer.from([0x61, 0xff])); // key "a\xff": not UTF-8
  const viaBody = message(7, [{ body: bodyWithDocument(bad) }]);
  expect(await answer(viaBody)).toMatchObject({ ok: 0, code: 22, codeName: 'InvalidBSON' });
  const viaSequence = message(8, [{ body: bson({ insert: 'v', $db: dbName }) }, { id: 'documents', docs: [bad] }]);
  expect(await answer(viaSequence)).toMatchObject({ ok: 0, code: 22, codeName: 'InvalidBSON' });
  expect(await ctx.db.collection('v').countDocuments()).toBe(0);
});

/** An insert command whose `documents` array holds `doc` as raw bytes. */
function bodyWithDocument(doc: Buffer): Buffer {
  const head = bson({ insert: 'v', $db: dbName });
  const arr = Buffer.concat([Buffer.alloc(4), Buffer.from([0x03, 0x30, 0x00]), doc, Buffer.from([0])]);
  arr.writeInt32LE(arr.length, 0);
  const element = Buffer.concat([Buffer.from([0x04]), Buffer.from('documents\0'), arr]);
  const out = Buffer.concat([head.subarray(0, head.length - 1), element, Buffer.from([0])]);
  out.writeInt32LE(out.length, 0);
  return out;
}

test('documents nested past 200 levels are refused, 190 levels stored', async () => {
  const nest = (n: number): Document => (n === 0 ? { leaf: 1 } : { d: nest(n - 1) });
  const deep = await answer(
    message(7, [
      { body: bson({ insert: 'deep', $db: dbName }) },
      { id: 'documents', docs: [bson({ _id: 1, ...nest(201) })] },
    ]),
  );
  expect(deep).toMatchObject({ ok: 0, codeName: 'InvalidBSON' });
  const fine = await answer(
    message(7, [
      { body: bson({ insert: 'deep', $db: dbName }) },
      { id: 'documents', docs: [bson({ _id: 2, ...nest(190) })] },
    ]),
  );
  expect(fine).toMatchObject({ ok: 1, n: 1 });
});

test("two bodies, a repeated sequence, an unknown section kind or no body: mongod's errors, nothing run", async () => {
  const insert = bson({ insert: 's', $db: dbName });
  const twoBodies = await answer(message(7, [{ body: insert }, { body: insert }]));
  expect(twoBodies).toMatchObject({ ok: 0, code: 40430 });
  const doc = bson({ _id: 1 });
  const repeated = await answer(
    message(7, [{ body: insert }, { id: 'documents', docs: [doc] }, { id: 'documents', docs: [bson({ _id: 2 })] }]),
  );
  expect(repeated).toMatchObject({ ok: 0, code: 40431 });
  const unknownKind = await answer(message(7, [{ body: insert }, { kind: 2, bytes: doc }]));
  expect(unknownKind).toMatchObject({ ok: 0, code: 40432 });
  const noBody = await answer(message(7, [{ id: 'documents', docs: [doc] }]));
  expect(noBody).toMatchObject({ ok: 0, code: 40587 });
  expect(await ctx.db.collection('s').countDocuments()).toBe(0);
});
