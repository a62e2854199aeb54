// The change source over the storage's oplog on its own: positions increase, reads resume after a position,
// DDL comes as its expanded kinds (streams show them only with showExpandedEvents), records become visible once flushed, the history (epoch, positions)
// survives reopening the data directory, and retention moves the floor.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OplogChangeSource } from '../src/changes/source.js';
import { encode } from '../src/storage/bsonio.js';
import { Catalog } from '../src/storage/catalog.js';
import { StorageEnv } from '../src/storage/env.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function open(
  dir?: string,
  maxChanges?: number,
): { catalog: Catalog; source: OplogChangeSource; close: () => Promise<void> } {
  const env = StorageEnv.open({ dir });
  const catalog = new Catalog(env, { maxChanges });
  const source = new OplogChangeSource(catalog.oplog, env);
  return {
    catalog,
    source,
    close: async () => {
      source.close();
      await env.close();
    },
  };
}

/** Inserts documents with these _ids, one write transaction each, and waits until they are on disk. */
async function insert(catalog: Catalog, ids: number[]): Promise<void> {
  for (const _id of ids) {
    catalog.env.write(() => catalog.ensure('d', 'c').insert(encode({ _id }), { _id }));
    await catalog.env.flushed();
  }
}

test('positions increase, readAfter resumes after a position, and DDL comes as its expanded kind', async () => {
  const { catalog, source, close } = open();
  try {
    const start = source.latest();
    await insert(catalog, [1, 2, 3]);
    const [create, ...all] = source.readAfter(start, 10);
    expect(create).toMatchObject({ kind: 'create', db: 'd', coll: 'c' });
    expect(all.map((r) => r.kind)).toEqual(['insert', 'insert', 'insert']);
    expect(all[0]!.position < all[1]!.position && all[1]!.position < all[2]!.position).toBe(true);
    expect(source.readAfter(create!.position, 10)).toHaveLength(3);
    expect(source.readAfter(all[0]!.position, 10)).toHaveLength(2);
    expect(source.readAfter(all[0]!.position, 1)).toHaveLength(1);
    expect(source.readAfter(all[2]!.position, 10)).toEqual([]);
    expect(source.latest()).toBe(all[2]!.position);
    // A position between two records (as startAtOperationTime gives) reads from the next one.
    expect(source.readAfter(all[1]!.position - 1n, 10)).toHaveLength(2);
  } finally {
    await close();
  }
});

test('updates keep pre- and post-images and say whether they replaced; deletes keep the pre-image', async () => {
  const { catalog, source, close } = open();
  try {
    await insert(catalog, [1]);
    const start = source.latest();
    const coll = catalog.get('d', 'c')!;
    const slot = coll.ridById(1)!;
    catalog.env.write(() => coll.update(slot, { _id: 1 }, encode({ _id: 1, a: 1 }), { _id: 1, a: 1 }));
    catalog.env.write(() =>
      coll.update(slot, { _id: 1, a: 1 }, encode({ _id: 1, b: 2 }), { _id: 1, b: 2 }, { replacement: true }),
    );
    catalog.env.write(() => coll.remove(slot));
    // Committed but not yet known to be on disk: not visible.
    expect(source.readAfter(start, 10)).toEqual([]);
    await catalog.env.flushed();
    const [upd, rep, del] = source.readAfter(start, 10);
    expect([upd!.kind, rep!.kind, del!.kind]).toEqual(['update', 'replace', 'delete']);
    expect(upd!.before).toEqual(encode({ _id: 1 }));
    expect(upd!.after).toEqual(encode({ _id: 1, a: 1 }));
    expect(rep!.before).toEqual(encode({ _id: 1, a: 1 }));
    expect(del!.before).toEqual(encode({ _id: 1, b: 2 }));
    expect(del!.after).toBeUndefined();
  } finally {
    await close();
  }
});

test('the history survives reopening the data directory, and listeners hear records once on disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'change-source-'));
  dirs.push(dir);
  const first = open(dir);
  await insert(first.catalog, [1, 2]);
  const epoch = first.source.epoch;
  const [, , second] = first.source.readAfter(0n, 10); // create, insert 1, insert 2
  await first.close();

  const again = open(dir);
  try {
    expect(again.source.epoch).toBe(epoch);
    expect(again.source.latest()).toBe(second!.position);
    expect(again.source.floor() <= second!.position).toBe(true);
    let heard = 0;
    const off = again.source.onAppend(() => heard++);
    await insert(again.catalog, [3]);
    off();
    await insert(again.catalog, [4]);
    expect(heard).toBe(1);
    const later = again.source.readAfter(second!.position, 10);
    expect(later.map((r) => r.position > second!.position)).toEqual([true, true]);
  } finally {
    await again.close();
  }
});

test('retention moves the floor to the oldest kept record', async () => {
  const { catalog, source, close } = open(undefined, 5);
  try {
    const floor0 = source.floor();
    expect(floor0).toBe(source.latest());
    await insert(catalog, [1, 2, 3]); // create + 3 inserts: nothing pruned
    expect(source.floor()).toBe(floor0);
    await insert(catalog, [4, 5, 6, 7]);
    const kept = source.readAfter(0n, 100);
    expect(kept).toHaveLength(5);
    expect(source.floor()).toBe(kept[0]!.position);
  } finally {
    await close();
  }
});
