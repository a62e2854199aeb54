// Unique indexes keep the record id as the value of their key (storage/indexes.ts), and documents are keyed by
// their `_id` (storage/collection.ts): a whole-key lookup is one LMDB get instead of a cursor probe, and an `_id`
// lookup is the document's own get. Checked from storage: `_id` lookups and `$in` lists read one document each
// and touch no index entry, prefix lookups and ordered walks of a unique index still find every document in
// order, and unique constraints still hold.
import { jest } from '@jest/globals';
import type { Document } from 'bson';
import { decode, encode } from '../src/storage/bsonio.js';
import { DuplicateKeyError } from '../src/errors.js';
import { findRaw } from '../src/query/exec.js';
import { scratchStore } from './scratch-store.js';

const doc = (i: number): Document => ({
  _id: `a${String(i).padStart(4, '0')}`,
  slug: `s${i}`,
  page: `p${i % 3}`,
  n: i,
});
const ids = (bufs: Iterable<Buffer>): unknown[] => [...bufs].map((b) => decode(b)._id);

describe('unique index lookups (engine internals)', () => {
  const store = scratchStore();
  afterAll(() => store.close());
  const c = store.collection('articles');
  store.write(() => {
    c.addIndex({ v: 2, key: { page: 1, slug: 1 }, name: 'page_slug', unique: true });
    for (let i = 0; i < 300; i++) c.insert(encode(doc(i)), doc(i));
  });
  const { keys, docs } = store.catalog.env;
  afterEach(() => jest.restoreAllMocks());

  it('answers _id equality and a 50-id $in with one document get per id and no index read', () => {
    const ranges = jest.spyOn(keys, 'getRange');
    const keyWalks = jest.spyOn(keys, 'getKeys');
    const counts = jest.spyOn(keys, 'getKeysCount');
    const keyGets = jest.spyOn(keys, 'getBinaryFast');
    const docRanges = jest.spyOn(docs, 'getRange');
    const gets = jest.spyOn(docs, 'getBinaryFast');
    expect(ids(findRaw(c, { filter: { _id: 'a0007' } }))).toEqual(['a0007']);
    const wanted = Array.from({ length: 50 }, (_, i) => `a${String((i * 37) % 300).padStart(4, '0')}`);
    expect(ids(findRaw(c, { filter: { _id: { $in: [...wanted, 'missing'] } } }))).toEqual([...wanted].sort());
    expect(ranges).not.toHaveBeenCalled();
    expect(keyWalks).not.toHaveBeenCalled();
    expect(counts).not.toHaveBeenCalled();
    expect(keyGets).not.toHaveBeenCalled();
    expect(docRanges).not.toHaveBeenCalled();
    expect(gets).toHaveBeenCalledTimes(1 + 51);
  });

  it('counts another candidate index only as far as the _id list is long when choosing', () => {
    const walks = jest.spyOn(keys, 'getKeys');
    const wanted = Array.from({ length: 20 }, (_, i) => `a${String(i * 3 + 1).padStart(4, '0')}`);
    // page_slug (leading field page) holds 100 documents under p1: counting it whole would read 100 keys.
    expect(ids(findRaw(c, { filter: { page: 'p1', _id: { $in: wanted } } }))).toEqual(wanted);
    const limits = walks.mock.calls.map(([opts]) => (opts as { limit?: number }).limit);
    expect(limits.length).toBeGreaterThan(0);
    expect(limits.every((l) => l !== undefined && l <= 21)).toBe(true);
  });

  it('finds documents under a leading-field prefix of a compound unique index, and whole keys', () => {
    expect(ids(findRaw(c, { filter: { page: 'p1' } }))).toEqual(
      Array.from({ length: 100 }, (_, i) => doc(i * 3 + 1)._id),
    );
    expect(ids(findRaw(c, { filter: { page: 'p2', slug: { $in: ['s5', 's8', 's9'] } } }))).toEqual(['a0005', 'a0008']);
  });

  it('walks a unique index in key order both ways', () => {
    const asc = ids(findRaw(c, { filter: { _id: { $gte: 'a0100' } }, sort: { _id: 1 }, limit: 5 }));
    expect(asc).toEqual(['a0100', 'a0101', 'a0102', 'a0103', 'a0104']);
    const desc = ids(findRaw(c, { filter: { page: 'p0' }, sort: { page: 1, slug: -1 }, limit: 3 }));
    // slugs compare as strings: s99 > s96 > s93 > … > s9 …
    expect(desc).toEqual(['a0099', 'a0096', 'a0093']);
  });

  it('still refuses duplicates and follows key changes and deletions', () => {
    expect(() => store.write(() => c.insert(encode({ ...doc(3), n: -1 }), { ...doc(3), n: -1 }))).toThrow(
      DuplicateKeyError,
    );
    const clash = { _id: 'new', slug: 's4', page: 'p1' };
    expect(() => store.write(() => c.insert(encode(clash), clash))).toThrow(DuplicateKeyError);
    const rid = c.ridById('a0004')!;
    store.write(() => c.update(rid, doc(4), encode({ ...doc(4), slug: 'moved' }), { ...doc(4), slug: 'moved' }));
    store.write(() => c.insert(encode(clash), clash)); // s4 is free now
    expect(ids(findRaw(c, { filter: { page: 'p1', slug: 's4' } }))).toEqual(['new']);
    store.write(() => c.remove(c.ridById('new')!));
    expect(c.ridById('new')).toBeUndefined();
    expect(ids(findRaw(c, { filter: { page: 'p1', slug: 'moved' } }))).toEqual(['a0004']);
  });
});
