// Large replies are built in reused memory (wire/rawbson.ts replyBuffers) that goes back to the pool only when
// the socket has written it. Checked over one raw socket: hundreds of finds with distinct answers of ~300 KB
// each written at once, the client not reading at first, so the engine's writes pile up behind each other
// while later replies are built: every reply must still carry exactly its own documents, in request order.
// The engine is the test's own: the 72 MB it writes should not wait behind other files' work on the shared one.
import net from 'node:net';
import { deserialize, serialize, type Document } from 'bson';
import { startEngine, type RunningEngine } from '../src/index.js';

let engine: RunningEngine;

const OP_MSG = 2013;

function opMsg(requestId: number, body: Document): Buffer {
  const doc = serialize(body);
  const out = Buffer.alloc(16 + 4 + 1 + doc.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(0, 8);
  out.writeInt32LE(OP_MSG, 12);
  out.writeUInt32LE(0, 16);
  out[20] = 0;
  out.set(doc, 21);
  return out;
}

/**
 * Sends the messages in one write, reads nothing until every message has been handed over and a pause has
 * passed (so the engine's replies queue in its socket), then collects `count` replies as [responseTo, body].
 */
function exchange(messages: Buffer[], count: number): Promise<Array<[number, Document]>> {
  const { hostname, port } = new URL(engine.uri);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let buffered = 0;
    const replies: Array<[number, Document]> = [];
    const socket = net.connect(Number(port), hostname, () => {
      socket.pause();
      socket.write(Buffer.concat(messages), () => setTimeout(() => socket.resume(), 300));
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      buffered += chunk.length;
      let all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
      while (all.length >= 4 && all.length >= all.readInt32LE(0)) {
        const len = all.readInt32LE(0);
        replies.push([all.readInt32LE(8), deserialize(all.subarray(21, len))]);
        all = all.subarray(len);
      }
      chunks.length = 0;
      buffered = all.length;
      if (all.length) chunks.push(all);
      if (replies.length >= count) {
        socket.end();
        resolve(replies);
      }
    });
    socket.on('error', reject);
    // A connection the engine closes early is a failure to report, not a wait until the test's timeout.
    socket.on('close', () => {
      if (replies.length < count) reject(new Error(`connection closed after ${replies.length} of ${count} replies`));
    });
  });
}

const DOCS = 1000;
const body = (n: number): string => `${n}:`.padEnd(2800, String.fromCharCode(97 + (n % 26)));

describe('large replies in reused memory', () => {
  const db = 'reply_buffers';
  beforeAll(async () => {
    engine = await startEngine({ host: '127.0.0.1', port: 0 });
    const documents = Array.from({ length: DOCS }, (_, n) => ({ _id: n, n, body: body(n) }));
    const [[, inserted]] = (await exchange([opMsg(1, { insert: 'c', documents, $db: db })], 1)) as [[number, Document]];
    expect(inserted).toMatchObject({ ok: 1, n: DOCS });
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('answers hundreds of pipelined finds of ~300 KB, each with its own documents', async () => {
    const requests = 240;
    // Request r: 100 ids (the $in path of commands/findById.ts) or a range of 100 (the general find path),
    // starting at a different place each time, so no two consecutive replies have the same bytes.
    const first = (r: number): number => (r * 37) % (DOCS - 100);
    const messages = Array.from({ length: requests }, (_, r) =>
      r % 2 === 0
        ? opMsg(1000 + r, {
            find: 'c',
            filter: { _id: { $in: Array.from({ length: 100 }, (_, i) => first(r) + 99 - i) } },
            $db: db,
          })
        : opMsg(1000 + r, {
            find: 'c',
            filter: { n: { $gte: first(r), $lt: first(r) + 100 } },
            sort: { n: 1 },
            singleBatch: true,
            $db: db,
          }),
    );
    const replies = await exchange(messages, requests);
    expect(replies.map(([to]) => to)).toEqual(messages.map((_, r) => 1000 + r));
    replies.forEach(([, reply], r) => {
      const docs = reply.cursor.firstBatch as Array<{ _id: number; n: number; body: string }>;
      const expected = Array.from({ length: 100 }, (_, i) => first(r) + i);
      expect(docs.map((d) => d._id)).toEqual(expected);
      expect(docs.every((d) => d.n === d._id && d.body === body(d._id))).toBe(true);
    });
    // 72 MB through one socket: seconds alone, many times that on a two-core machine running other files.
  }, 120_000);
});
