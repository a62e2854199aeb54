// What one index the service relies on looks like: each domain's list (content, catalogue, customers, OAuth,
// newsletter) is made of these, and src/store/indexes.ts gathers the lists.
import type { CreateIndexesOptions, Document, IndexSpecification } from 'mongodb';
import type { CollectionName } from './collections.js';

export interface IndexDef {
  collection: CollectionName;
  key: IndexSpecification;
  options?: CreateIndexesOptions & { name: string };
  /**
   * Built without holding the start when its collection already has documents: a text index over a large
   * archive takes minutes to build, and only the reads that need it wait (they are refused until it is ready).
   */
  deferred?: boolean;
}

/**
 * Whether `stored` (as listIndexes shows it) is `def`'s index: the same key, with a text index's fields as
 * MongoDB keeps them (`_fts: 'text', _ftsx: 1` in their place, the fields in its weights, 1 unless given).
 */
export function isIndexOf(stored: Document, def: IndexDef): boolean {
  const key: Document = {};
  const weights: Document = {};
  for (const [field, kind] of Object.entries(def.key as Document)) {
    if (kind !== 'text') key[field] = kind;
    else {
      Object.assign(key, { _fts: 'text', _ftsx: 1 });
      weights[field] = (def.options?.weights as Document | undefined)?.[field] ?? 1;
    }
  }
  const sorted = (d: Document = {}): string => JSON.stringify(Object.entries(d).sort(([a], [b]) => (a < b ? -1 : 1)));
  const same = JSON.stringify(stored.key) === JSON.stringify(key);
  return Object.keys(weights).length === 0 ? same : same && sorted(stored.weights as Document) === sorted(weights);
}

/** Whether a stored index is a text index: a collection has at most one. */
export const isTextIndex = (stored: Document): boolean => (stored.key as Document | undefined)?._fts === 'text';
