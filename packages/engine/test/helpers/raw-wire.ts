// The engine's wire protocol spoken over a raw socket, for tests that need what the driver hides: several
// OP_MSG requests written at once (as a pipelining client sends them) and the replies matched by responseTo.
import net from 'node:net';
import { deserialize, serialize, type Document } from 'bson';
import { testMongoUri } from './db.js';

const OP_MSG = 2013;
const HEADER = 16 + 4 + 1; // message header, flag bits, section kind 0

/** An OP_MSG request with one body section. */
export function opMsg(requestId: number, body: Document): Buffer {
  const doc = serialize(body);
  const out = Buffer.alloc(HEADER + doc.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(OP_MSG, 12);
  out.set(doc, HEADER);
  return out;
}

/** Writes every message at once on one socket and collects `count` replies as [responseTo, body]. */
export async function exchange(messages: Buffer[], count = messages.length): Promise<Array<[number, Document]>> {
  return (await exchangeRaw(messages, count)).map((r) => [r.readInt32LE(8), deserialize(r.subarray(HEADER))]);
}

/** Writes every message at once on one socket and collects `count` whole reply messages, as sent. */
export function exchangeRaw(messages: Buffer[], count = messages.length): Promise<Buffer[]> {
  const { hostname, port } = new URL(testMongoUri());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(Buffer.concat(messages)));
    let buffered = Buffer.alloc(0);
    const replies: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        const len = buffered.readInt32LE(0);
        replies.push(buffered.subarray(0, len));
        buffered = buffered.subarray(len);
      }
      if (replies.length >= count) {
        socket.end();
        resolve(replies);
      }
    });
    socket.on('error', reject);
  });
}
