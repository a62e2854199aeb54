// Unique indexes (`_id_` included) keep the slot as the value of their key (storage/indexes.ts): a whole-key
// lookup is one LMDB get instead of a cursor probe. Checked from storage: `_id` lookups and `$in` lists open
// no cursor over the index, prefix lookups and ordered walks of a unique index still find every document in
// order, unique constraints still hold, and a data directory written with the former layout (slot as a key
// suffix) is converted when it is opened.
import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document } from 'bson';
import { decode, encode } from '../../src/store/embedded/storage/bsonio.js';
import { Catalog } from '../../src/store/embedded/storage/catalog.js';
import { DuplicateKeyError } from '../../src/store/embedded/storage/dupkey.js';
import { keyRange, prefixEnd, StorageEnv, u32 } from '../../src/store/embedded/storage/env.js';
import { findRaw } from '../../src/store/embedded/query/exec.js';
import { slotSuffix } from '../../src/store/embedded/storage/order.js';
import { scratchStore } from './scratch-store.js';

const doc = (i: number): Document => ({ _id: `a${String(i).padStart(4, '0')}`, slug: `s${i}`, page: `p${i % 3}`, n: i });
const ids = (bufs: Iterable<Buffer>): unknown[] => [...bufs].map((b) => decode(b)._id);

describe('unique index lookups (engine internals)', () => {
  const store = scratchStore();
  afterAll(() => store.close());
  const c = store.collection('articles');
  store.write(() => {
    c.addIndex({ v: 2, key: { page: 1, slug: 1 }, name: 'page_slug', unique: true });
    for (let i = 0; i < 300; i++) c.insert(encode(doc(i)), doc(i));
  });
  const keys = store.catalog.env.keys;
  afterEach(() => jest.restoreAllMocks());

  it('answers _id equality and a 50-id $in with one get per id and no cursor over the index', () => {
    const ranges = jest.spyOn(keys, 'getRange');
    const keyWalks = jest.spyOn(keys, 'getKeys');
    const counts = jest.spyOn(keys, 'getKeysCount');
    const gets = jest.spyOn(keys, 'getBinaryFast');
    expect(ids(findRaw(c, { filter: { _id: 'a0007' } }))).toEqual(['a0007']);
    const wanted = Array.from({ length: 50 }, (_, i) => `a${String((i * 37) % 300).padStart(4, '0')}`);
    expect(ids(findRaw(c, { filter: { _id: { $in: [...wanted, 'missing'] } } }))).toEqual([...wanted].sort());
    expect(ranges).not.toHaveBeenCalled();
    expect(keyWalks).not.toHaveBeenCalled();
    expect(counts).not.toHaveBeenCalled();
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
    expect(ids(findRaw(c, { filter: { page: 'p1' } }))).toEqual(Array.from({ length: 100 }, (_, i) => doc(i * 3 + 1)._id));
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
    expect(() => store.write(() => c.insert(encode({ ...doc(3), n: -1 }), { ...doc(3), n: -1 }))).toThrow(DuplicateKeyError);
    const clash = { _id: 'new', slug: 's4', page: 'p1' };
    expect(() => store.write(() => c.insert(encode(clash), clash))).toThrow(DuplicateKeyError);
    const slot = c.slotById('a0004')!;
    store.write(() => c.update(slot, doc(4), encode({ ...doc(4), slug: 'moved' }), { ...doc(4), slug: 'moved' }));
    store.write(() => c.insert(encode(clash), clash)); // s4 is free now
    expect(ids(findRaw(c, { filter: { page: 'p1', slug: 's4' } }))).toEqual(['new']);
    store.write(() => c.remove(c.slotById('new')!));
    expect(c.slotById('new')).toBeUndefined();
    expect(ids(findRaw(c, { filter: { page: 'p1', slug: 'moved' } }))).toEqual(['a0004']);
  });
});

describe('a data directory with the former unique-index layout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engine-layout1-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is converted when opened: lookups, walks and unique checks work on it', async () => {
    let env = StorageEnv.open({ dir });
    let catalog = new Catalog(env);
    env.write(() => {
      const c = catalog.ensure('db', 'articles');
      c.addIndex({ v: 2, key: { slug: 1 }, name: 'slug', unique: true });
      c.addIndex({ v: 2, key: { page: 1 }, name: 'page' });
      for (let i = 0; i < 700; i++) c.insert(encode(doc(i)), doc(i));
    });
    // Rewrite it as the former layout wrote it: every entry is components | slot -> empty, no format record.
    env.write(() => {
      for (const idx of catalog.get('db', 'articles')!.indexes.values()) {
        if (!idx.unique) continue;
        const prefix = u32(idx.id);
        for (const k of [...keyRange(env.keys, prefix, prefixEnd(prefix))]) {
          const slot = env.keys.getBinary(k)!.readUIntBE(0, 6);
          env.keys.removeSync(k);
          env.keys.putSync(Buffer.concat([k, Buffer.from(slotSuffix(slot))]), Buffer.alloc(0));
        }
      }
      env.meta.removeSync('format');
    });
    await env.close();

    env = StorageEnv.open({ dir });
    catalog = new Catalog(env);
    try {
      const c = catalog.get('db', 'articles')!;
      expect(decode(env.meta.getBinary('format')!).version).toBe(2);
      expect(c.slotById('a0650')).toBeDefined();
      expect(ids(findRaw(c, { filter: { slug: { $in: ['s1', 's650', 'nope'] } } }))).toEqual(['a0001', 'a0650']);
      expect(ids(findRaw(c, { filter: {}, sort: { _id: -1 }, limit: 2 }))).toEqual(['a0699', 'a0698']);
      expect(ids(findRaw(c, { filter: { page: 'p2', _id: { $lt: 'a0010' } } }))).toEqual(['a0002', 'a0005', 'a0008']);
      expect(() => env.write(() => c.insert(encode({ _id: 'x', slug: 's10' }), { _id: 'x', slug: 's10' }))).toThrow(DuplicateKeyError);
      expect(() => env.write(() => c.insert(encode(doc(20)), doc(20)))).toThrow(DuplicateKeyError);
    } finally {
      await env.close();
    }
  });
});
