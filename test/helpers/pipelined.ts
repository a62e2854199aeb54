// Several HTTP requests written at once on one connection (pipelined): the service parses them in one pass, so they
// reach the store in the same turn of its event loop, as concurrent clients under load do.
import { connect } from 'node:net';

/** POSTs every body to `path` on one connection, written at once; the answers' bodies in order. */
export async function pipelinedPosts(url: string, path: string, bodies: string[]): Promise<string[]> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(
    bodies
      .map(
        (body) =>
          `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
      .join(''),
  );
  let pending = Buffer.alloc(0);
  const answers: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', () =>
        reject(new Error(`connection closed after ${answers.length} of ${bodies.length} answers`)),
      );
      socket.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          const head = pending.indexOf('\r\n\r\n');
          if (head < 0) break;
          const length = Number(/content-length: (\d+)/i.exec(pending.subarray(0, head).toString('latin1'))?.[1]);
          if (!Number.isFinite(length))
            return reject(
              new Error(`an answer without content-length: ${pending.subarray(0, head).toString('latin1')}`),
            );
          if (pending.length < head + 4 + length) break;
          answers.push(pending.subarray(head + 4, head + 4 + length).toString('utf8'));
          pending = pending.subarray(head + 4 + length);
        }
        if (answers.length === bodies.length) resolve();
      });
    });
  } finally {
    socket.destroy();
  }
  return answers;
}
