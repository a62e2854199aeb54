// When a ready part computed between `mark` and `keep` is kept (src/cache/ready-parts.ts): the REST lists'
// parts are computed over many milliseconds while the change stream reports writes, and whether a write reported
// meanwhile lands exactly in that window cannot be arranged over HTTP. The cache is asked directly here, with
// change events shaped as the stream gives them.
import type { ChangeStreamDocument, Document } from 'mongodb';
import { ReadyParts, type Shows } from '../../src/cache/ready-parts.js';

const update = (coll: string, id: string): ChangeStreamDocument<Document> =>
  ({ operationType: 'update', ns: { db: 'db', coll }, documentKey: { _id: id } }) as never;

const SHOWS: Shows[] = [{ collection: 'articles', ids: ['a-1'] }, { collection: 'liveBlogMessages' }];

function followed(): ReadyParts {
  const ready = ReadyParts.following(1024 * 1024, ['articles', 'polls', 'liveBlogMessages']);
  ready.follow();
  return ready;
}

const bytes = Buffer.from('{"id":"i-1"}');

test('a change to another document reported meanwhile does not stop a part being kept', () => {
  const ready = followed();
  const mark = ready.mark();
  ready.changed(update('articles', 'a-2'));
  ready.changed(update('polls', 'p-1'));
  ready.keep('issue\u0000i-1', bytes, SHOWS, mark);
  expect(ready.get('issue\u0000i-1')).toEqual(bytes);
});

test('a change to what the part shows reported meanwhile stops it being kept', () => {
  for (const change of [update('articles', 'a-1'), update('liveBlogMessages', 'm-9')]) {
    const ready = followed();
    const mark = ready.mark();
    ready.changed(change);
    ready.changed(update('polls', 'p-1'));
    ready.keep('issue\u0000i-1', bytes, SHOWS, mark);
    expect(ready.get('issue\u0000i-1')).toBeUndefined();
  }
});

test('nothing is kept across a lost stream or more changes than are remembered', () => {
  const ready = followed();
  let mark = ready.mark();
  ready.evictAll();
  ready.keep('issue\u0000i-1', bytes, SHOWS, mark);
  expect(ready.get('issue\u0000i-1')).toBeUndefined();

  mark = ready.mark();
  for (let i = 0; i < 5_000; i++) ready.changed(update('polls', `p-${i}`));
  ready.keep('issue\u0000i-1', bytes, SHOWS, mark);
  expect(ready.get('issue\u0000i-1')).toBeUndefined();
});

test('a part is not served from the moment it stops being right', () => {
  const ready = followed();
  ready.keep('issue\u0000i-1', bytes, SHOWS, ready.mark(), Date.now() + 60_000);
  expect(ready.get('issue\u0000i-1')).toEqual(bytes);
  ready.keep('issue\u0000i-1', bytes, SHOWS, ready.mark(), Date.now() - 1);
  expect(ready.get('issue\u0000i-1')).toBeUndefined();
});
