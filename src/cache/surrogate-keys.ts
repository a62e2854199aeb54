// The names of cached things a write makes stale ("surrogate keys"), shared by the answers that carry them
// (answer-keys.ts) and the purges that name them (src/events). Three kinds of key:
// - `article:<id>`: one entity of a collection whose objects the executor sees with their ids (ENTITIES);
// - a collection's name (`articles`, `authors`): anything of that collection may change the answer (an entity
//   that may join a list, or data read without an id); every write to the collection purges it;
// - `all`: on every answer; a write that changes everything (a channel's configuration) purges it.
import type { CollectionName } from '../store/collections.js';
import { EVERYTHING, SHOWN_BY } from './shown-by.js';

/** Collections whose documents are shown as objects of one GraphQL type, with the id the API gives them. */
const ENTITIES = {
  articles: { kind: 'article', type: 'Article' },
  issues: { kind: 'issue', type: 'Issue' },
  pages: { kind: 'page', type: 'Page' },
  contentCategories: { kind: 'category', type: 'ContentCategory' },
  products: { kind: 'product', type: 'Product' },
  productItems: { kind: 'productItem', type: 'ProductItem' },
  productCategories: { kind: 'productCategory', type: 'ProductCategory' },
} as const satisfies Partial<Record<CollectionName, { kind: string; type: string }>>;

type EntityCollection = keyof typeof ENTITIES;
export type EntityKind = (typeof ENTITIES)[EntityCollection]['kind'];

/**
 * Types built from their parent's document alone (no resolver reads anything else): they change only with the
 * parent, whose own key the answer carries. Only types checked to be so belong here.
 */
export const EMBEDDED_TYPES: ReadonlySet<string> = new Set(['Seo', 'PageMetadata', 'ImageTransform', 'TransformUrl']);

/** Purged by every write that changes everything; carried by every tagged answer. */
export const ALL_KEY = 'all';

/**
 * Fields of entity types whose value is read from another collection (not through an object of its own): an
 * answer that selects one depends on those collections as a whole.
 */
export const DERIVED_FIELDS: ReadonlyArray<{ type: string; field: string; collections: readonly string[] }> = [
  { type: 'ProductCategory', field: 'totalProductsCount', collections: ['products', 'productItems'] },
];

/**
 * `article:<id>`. Ids are the stored ids; what separates keys in the headers (space, comma), `%` and anything
 * but printable ASCII are percent-encoded, the same way on both sides, so a key's length is its size in bytes.
 */
export const entityKey = (kind: EntityKind, id: string): string =>
  `${kind}:${id.replace(/[^\x21-\x7e]|[,%]/gu, encodeURIComponent)}`;

const isEntityCollection = (collection: string): collection is EntityCollection => Object.hasOwn(ENTITIES, collection);

export function kindOfCollection(collection: string): EntityKind | undefined {
  return isEntityCollection(collection) ? ENTITIES[collection].kind : undefined;
}

/** The entity kind whose objects are of `type`, with the collection they are stored in. */
export const ENTITY_TYPES: ReadonlyMap<string, { kind: EntityKind; collection: string }> = new Map(
  Object.entries(ENTITIES).map(([collection, { kind, type }]) => [type, { kind, collection }]),
);

/** For every GraphQL type, the collections whose writes may change an object of it (SHOWN_BY, inverted). */
export const COLLECTIONS_SHOWN_AS: ReadonlyMap<string, readonly string[]> = (() => {
  const byType = new Map<string, string[]>();
  for (const [collection, types] of Object.entries(SHOWN_BY) as Array<[string, readonly string[]]>)
    for (const type of types) {
      if (type === EVERYTHING) continue;
      const list = byType.get(type) ?? [];
      list.push(collection);
      byType.set(type, list);
    }
  return byType;
})();

/**
 * What a write to one document of `collection` makes stale, or nothing when no cached answer shows the
 * collection: its entity key (entity collections) and the collection's key, or `all`.
 */
export function keysForChange(collection: string, id: string): string[] {
  const shown: readonly string[] | undefined = (SHOWN_BY as Record<string, readonly string[]>)[collection];
  if (!shown || shown.length === 0) return [];
  if (shown.includes(EVERYTHING)) return [ALL_KEY];
  return isEntityCollection(collection) ? [entityKey(ENTITIES[collection].kind, id), collection] : [collection];
}
