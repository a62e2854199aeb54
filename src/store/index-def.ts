// What one index the service relies on looks like: each domain's list (content, catalogue, customers, OAuth,
// newsletter) is made of these, and src/store/indexes.ts gathers the lists.
import type { CreateIndexesOptions, IndexSpecification } from 'mongodb';
import type { CollectionName } from './collections.js';

export interface IndexDef {
  collection: CollectionName;
  key: IndexSpecification;
  options?: CreateIndexesOptions & { name: string };
}
