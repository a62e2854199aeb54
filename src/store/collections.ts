// Collection names and their document types. Each domain adds its collections by declaration merging:
//   declare module '../collections.js' { interface CollectionTypes { articles: ArticleDoc } }
// so this file never needs editing for a new collection.
import type { Document } from 'mongodb';

export interface CollectionTypes {
  /** Key/value documents the service keeps for itself (signing keys, seed markers, ...). */
  settings: { _id: string; value: unknown; updatedAt: Date };
}

export type CollectionName = keyof CollectionTypes & string;
export type DocOf<N extends CollectionName> = CollectionTypes[N] extends Document ? CollectionTypes[N] : never;
