// Seeded fuzzing of the engine's wire protocol: valid OP_MSG requests (inserts and updates with document
// sequences, finds, aggregates) with bytes changed, lengths bent, and pieces cut or repeated, each sent on a
// connection of its own. Every request must be answered with a well-formed reply or have its connection
// closed; the engine must keep answering other connections; and whatever was stored must still be readable
// (no invalid bytes reach storage). FUZZ_WIRE_CASES and FUZZ_SEED change the size and the seed.
import net from 'node:net';
import { deserialize, ObjectId, serialize, type Document } from 'bson';
import { openTestDb, testMongoUri } from './helpers/db.js';
import { random } from './helpers/random.js';

const CASES = Number(process.env.FUZZ_WIRE_CASES ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 2026);
/** A liveness bound, not a performance one: an answer or a close normally takes milliseconds. */
const HANG_MS = 15_000;

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let dbName: string;
beforeAll(async () => {
  ctx = await openTestDb('wirefuzz');
  dbName = ctx.db.databaseName;
  await ctx.db.collection('docs').createIndex({ k: 1 });
});
afterAll(async () => ctx.close());

function message(body: Document, sequence?: [string, Document[]]): Buffer {
  const head = serialize(body);
  const parts: Buffer[] = [Buffer.alloc(21), Buffer.from(head)];
  if (sequence) {
    const ident = Buffer.from(`${sequence[0]}\0`);
    const docs = sequence[1].map((d) => Buffer.from(serialize(d)));
    const size = Buffer.alloc(5);
    size.writeUInt8(1, 0);
    size.writeInt32LE(4 + ident.length + docs.reduce((n, d) => n + d.length, 0), 1);
    parts.push(size, ident, ...docs);
  }
  const out = Buffer.concat(parts);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(7, 4);
  out.writeInt32LE(2013, 12);
  return out;
}

function seeds(): Buffer[] {
  const doc = (i: number): Document => ({
    _id: i,
    k: `key-${i}`,
    s: 'é☆'.repeat(i % 3),
    n: [1, 2.5, { x: new ObjectId() }],
    d: new Date(0),
    b: true,
  });
  return [
    message({ insert: 'docs', $db: dbName }, ['documents', [doc(1), doc(2), doc(3)]]),
    message({ insert: 'docs', documents: [doc(4), { k: 'no-id' }], $db: dbName }),
    message({ update: 'docs', $db: dbName }, ['updates', [{ q: { k: 'key-1' }, u: { $set: { t: 1 } }, upsert: true }]]),
    message({ find: 'docs', filter: { k: { $in: ['key-1', 'key-2'] } }, sort: { k: -1 }, $db: dbName }),
    message({ find: 'docs', filter: { _id: 2 }, limit: 1, singleBatch: true, $db: dbName }),
    message({
      aggregate: 'docs',
      pipeline: [{ $match: { b: true } }, { $group: { _id: '$k', c: { $sum: 1 } } }],
      cursor: {},
      $db: dbName,
    }),
    message({ delete: 'docs', $db: dbName }, ['deletes', [{ q: { k: 'key-3' }, limit: 1 }]]),
  ];
}

function mutate(src: Buffer, rnd: () => number): Buffer {
  let b = Buffer.from(src);
  const at = (): number => Math.floor(rnd() * b.length);
  const steps = 1 + Math.floor(rnd() * 3);
  for (let s = 0; s < steps; s++) {
    const kind = Math.floor(rnd() * 6);
    if (kind === 0) b[at()] = Math.floor(rnd() * 256);
    else if (kind === 1) b[at()] = [0x00, 0x01, 0x7f, 0x80, 0xff][Math.floor(rnd() * 5)]!;
    else if (kind === 2) {
      // An int32 somewhere (often a length) made small, large, negative or off by one.
      const p = Math.min(at(), b.length - 4);
      const old = b.readInt32LE(p);
      b.writeInt32LE([0, 1, 4, 5, -1, 0x7fffffff, (old + 1) | 0, (old - 1) | 0][Math.floor(rnd() * 8)]!, p);
    } else if (kind === 3)
      b = b.subarray(0, Math.max(21, at())); // cut short
    else if (kind === 4) {
      const p = at();
      b = Buffer.concat([b.subarray(0, p), b.subarray(p, p + Math.floor(rnd() * 16)), b.subarray(p)]); // a piece repeated
    } else {
      const p = at();
      b = Buffer.concat([b.subarray(0, p), b.subarray(p + 1 + Math.floor(rnd() * 8))]); // a piece removed
    }
  }
  // Most cases keep the header's length true, so the message reaches the decoder; some do not.
  if (rnd() < 0.8 && b.length >= 4) b.writeInt32LE(b.length, 0);
  return b;
}

type Outcome = { reply: Document } | 'closed';

function send(msg: Buffer): Promise<Outcome> {
  const { hostname, port } = new URL(testMongoUri());
  // A message whose header promises more (or less) than is sent: a server waits for the rest (or reads the
  // next message from the remainder), so our side ends the connection after it to say nothing more comes.
  const complete = msg.length >= 4 && msg.readInt32LE(0) === msg.length;
  // A message with moreToCome (and no flag the server must refuse) gets no reply by design: a ping after it
  // on the same connection must be answered instead.
  const flags = msg.length >= 20 ? msg.readUInt32LE(16) : 0;
  const silent = complete && (flags & 0x2) !== 0 && (flags & 0xfffc) === 0;
  const sent = silent ? Buffer.concat([msg, message({ ping: 1, $db: dbName })]) : msg;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => (complete ? socket.write(sent) : socket.end(sent)));
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${HANG_MS} ms for ${msg.toString('hex').slice(0, 400)}`));
    }, HANG_MS);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ reply: deserialize(buffered.subarray(21, buffered.readInt32LE(0))) });
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
    socket.on('error', () => undefined);
  });
}

test(`${CASES} mutated requests (seed ${SEED}): each answered or closed, the engine serving throughout`, async () => {
  const rnd = random(SEED);
  const base = seeds();
  let answered = 0;
  let closed = 0;
  for (let i = 0; i < CASES; i++) {
    const msg = mutate(base[Math.floor(rnd() * base.length)]!, rnd);
    const outcome = await send(msg);
    // An OP_MSG whose header tells its true length is answered, whatever its inside: mongod refuses a bad
    // section or document with an error reply, and so must the engine (a close is for broken framing only).
    const framed = msg.length >= 16 && msg.readInt32LE(0) === msg.length && msg.readInt32LE(12) === 2013;
    if (framed && outcome === 'closed')
      throw new Error(`a framed OP_MSG was not answered: ${msg.toString('hex').slice(0, 400)}`);
    if (outcome === 'closed') closed++;
    else {
      answered++;
      expect(typeof outcome.reply.ok).toBe('number');
      if (outcome.reply.ok === 0) expect(typeof outcome.reply.errmsg).toBe('string');
      // Bad input is the client's error, never the engine's InternalError (code 1), in a reply or a write error.
      expect(outcome.reply.code).not.toBe(1);
      for (const w of (outcome.reply.writeErrors as Document[] | undefined) ?? []) expect(w.code).not.toBe(1);
    }
    if (i % 250 === 249) expect(await ctx.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  }
  expect(answered + closed).toBe(CASES);
  expect(answered).toBeGreaterThan(0);
  // Everything stored decodes: every document read back through the driver, by a scan and by the index.
  const all = await ctx.db.collection('docs').find().toArray();
  expect(await ctx.db.collection('docs').countDocuments()).toBe(all.length);
  await ctx.db
    .collection('docs')
    .find({ k: { $gte: '' } })
    .toArray();
});
