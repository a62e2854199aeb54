// Replies on one connection come in request order (wire/server.ts): a command that completes at once is
// answered in the same turn, but one sent behind a command that waits (a chunked insert, a journaled write)
// waits for it. Checked over a raw socket with several OP_MSG requests written at once, as a pipelining
// client would send them: each reply answers its request, in order, and sees the writes before it.
import { uniqueDbName } from './helpers/db.js';
import { exchange, opMsg } from './helpers/raw-wire.js';

describe('reply order on one connection', () => {
  const db = uniqueDbName('wire_order');
  afterAll(async () => {
    await exchange([opMsg(99, { dropDatabase: 1, $db: db })], 1);
  });

  it('answers pipelined requests in order, each after the writes sent before it', async () => {
    const documents = Array.from({ length: 300 }, (_, i) => ({ _id: i, n: i }));
    const replies = await exchange(
      [
        // 300 documents: a chunked insert, answered after several transactions (a later turn).
        opMsg(1, { insert: 'c', documents, $db: db }),
        opMsg(2, { count: 'c', $db: db }),
        opMsg(3, { find: 'c', filter: { _id: 250 }, limit: 1, singleBatch: true, $db: db }),
        // A journaled write waits for the disk (or at least a later turn) before its reply.
        opMsg(4, { insert: 'c', documents: [{ _id: 1000, n: 1000 }], writeConcern: { j: true }, $db: db }),
        opMsg(5, { find: 'c', filter: { _id: 1000 }, limit: 1, singleBatch: true, $db: db }),
        opMsg(6, { count: 'c', $db: db }),
      ],
      6,
    );
    expect(replies.map(([to]) => to)).toEqual([1, 2, 3, 4, 5, 6]);
    const [insert, count, found, journaled, foundLater, countLater] = replies.map(([, body]) => body);
    expect(insert).toMatchObject({ ok: 1, n: 300 });
    expect(count).toMatchObject({ ok: 1, n: 300 });
    expect(found!.cursor.firstBatch).toEqual([{ _id: 250, n: 250 }]);
    expect(journaled).toMatchObject({ ok: 1, n: 1 });
    expect(foundLater!.cursor.firstBatch).toEqual([{ _id: 1000, n: 1000 }]);
    expect(countLater).toMatchObject({ ok: 1, n: 301 });
  });
});
