// What one index the service relies on looks like: each domain's list (content, catalogue, customers, OAuth,
// newsletter) is made of these, and src/store/indexes.ts gathers the lists.
import type { CreateIndexesOptions, IndexSpecification } from 'mongodb';
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
