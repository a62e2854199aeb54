// A scratch LMDB environment for tests that call storage and the planner directly (no wire protocol):
// a temporary directory deleted by close(). Collections are created in their own write transaction;
// storage changes must run inside `write`.
import { Catalog } from '../src/storage/catalog.js';
import type { Collection } from '../src/storage/collection.js';
import { StorageEnv } from '../src/storage/env.js';

export interface ScratchStore {
  catalog: Catalog;
  collection(name?: string): Collection;
  write<T>(fn: () => T): T;
  close(): Promise<void>;
}

export function scratchStore(): ScratchStore {
  const env = StorageEnv.open();
  const catalog = new Catalog(env);
  let n = 0;
  return {
    catalog,
    collection: (name = `c${n++}`) => env.write(() => catalog.ensure('db', name)),
    write: (fn) => env.write(fn),
    close: () => env.close(),
  };
}
