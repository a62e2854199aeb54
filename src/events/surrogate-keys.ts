// The names of cached things a change makes stale ("surrogate keys"): one per entity (`article:<id>`) and one
// per list that entity can sit in (`articles`). Cache-purge events carry them, and answers that show an entity
// are tagged with the same names, so a CDN purges exactly what a write changed.

/** Entity kinds with a key of their own, by the collection they are stored in. */
const ENTITY_KINDS = {
  articles: 'article',
  issues: 'issue',
  products: 'product',
  productItems: 'productItem',
} as const;

type KeyedCollection = keyof typeof ENTITY_KINDS;
export type EntityKind = (typeof ENTITY_KINDS)[KeyedCollection];

/** `article:<id>`, `issue:<id>`, `product:<id>`, `productItem:<id>`. */
export const entityKey = (kind: EntityKind, id: string): string => `${kind}:${id}`;

/** The key of every list of one kind (`articles`, `issues`, `products`, `productItems`). */
const listKey = (kind: EntityKind): string => `${kind}s`;

export function kindOfCollection(collection: string): EntityKind | undefined {
  return Object.hasOwn(ENTITY_KINDS, collection) ? ENTITY_KINDS[collection as KeyedCollection] : undefined;
}

/** What a change to one entity makes stale: the entity itself and the lists of its kind. */
export const keysForChange = (kind: EntityKind, id: string): string[] => [entityKey(kind, id), listKey(kind)];
