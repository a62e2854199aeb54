// The surrogate keys of one answer, collected while the executor completes it: the entity key of every entity
// object the answer shows, and the key of every collection whose writes may change it otherwise (an object of
// a type no id names, a list that an entity may join, a null that may become one). Which collections can change
// which types is the response cache's own map (shown-by.ts); this only narrows it to entities where the answer
// shows them by id. Sent as `Surrogate-Key` and `Cache-Tag` (src/http/cdn-headers.ts).
import {
  ALL_KEY,
  COLLECTIONS_SHOWN_AS,
  DERIVED_FIELDS,
  EMBEDDED_TYPES,
  ENTITY_TYPES,
  entityKey,
  type EntityKind,
} from './surrogate-keys.js';

/**
 * The longest key list sent, in bytes: CDNs cap the header (Varnish's default line is 8 KiB, Fastly's and
 * Cloudflare's 16 KiB). Past it the entity keys of the most frequent kind give way to their collection's key,
 * which every write to that collection purges: the answer is purged more often, never less.
 */
const MAX_KEYS_BYTES = 4_000;

const NONE: readonly string[] = [];
/** One array per type, so that an answer adds each only once (`depends` skips arrays it has seen). */
const OF_TYPE = new Map<string, readonly string[]>();

/**
 * The collections whose writes may put an object of `type` where the answer has none, or change one no id names.
 * An entity appears by a write to its own document (whether it is shown is stored on it: status, enabled; see
 * docs/decisions.md, "Visibility is the same for every reader"); anything else by a write to any collection
 * shown-by.ts says can change its type.
 */
export function collectionsOfType(type: string): readonly string[] {
  let collections = OF_TYPE.get(type);
  if (!collections) {
    const entity = ENTITY_TYPES.get(type);
    collections = EMBEDDED_TYPES.has(type)
      ? NONE
      : entity
        ? [entity.collection]
        : (COLLECTIONS_SHOWN_AS.get(type) ?? NONE);
    OF_TYPE.set(type, collections);
  }
  return collections;
}

export class AnswerKeys {
  private readonly entities = new Map<EntityKind, Set<string>>();
  private readonly collections = new Set<string>();
  private readonly added = new Set<readonly string[]>();

  /** An object of `type` is in the answer. */
  object(type: string, source: unknown): void {
    const entity = ENTITY_TYPES.get(type);
    const id = entity && (source as { id?: unknown } | null)?.id;
    if (entity && typeof id === 'string' && id) {
      let keys = this.entities.get(entity.kind);
      if (!keys) this.entities.set(entity.kind, (keys = new Set()));
      keys.add(entityKey(entity.kind, id));
    } else this.depends(collectionsOfType(type));
  }

  /** Writes to any of `collections` may change the answer (one of their documents may appear in it). */
  depends(collections: readonly string[]): void {
    if (this.added.has(collections)) return;
    this.added.add(collections);
    for (const collection of collections) this.collections.add(collection);
  }

  /**
   * The keys, `all` first, within `maxBytes` once joined by one separator. `selected`: the fields the operation
   * selects per type (fields read from other collections add those).
   */
  keys(selected?: ReadonlyMap<string, ReadonlySet<string>>, maxBytes = MAX_KEYS_BYTES): string[] {
    for (const { type, field, collections } of DERIVED_FIELDS)
      if (selected?.get(type)?.has(field)) this.depends(collections);
    const byKind = [...this.entities.entries()].filter(([kind]) => !this.collections.has(collectionOf(kind)));
    const fixed = [ALL_KEY, ...[...this.collections].sort()];
    let length =
      fixed.reduce((sum, key) => sum + key.length + 1, 0) + byKind.reduce((sum, [, keys]) => sum + size(keys), 0);
    // The kind with the most keys gives way first: one key replaces the most bytes.
    byKind.sort(([, a], [, b]) => b.size - a.size);
    while (length > maxBytes && byKind.length > 0) {
      const [kind, keys] = byKind.shift()!;
      fixed.push(collectionOf(kind));
      length += collectionOf(kind).length + 1 - size(keys);
    }
    return [...fixed, ...byKind.flatMap(([, keys]) => [...keys])];
  }
}

const size = (keys: ReadonlySet<string>): number => {
  let bytes = 0;
  for (const key of keys) bytes += key.length + 1;
  return bytes;
};

const COLLECTION_OF_KIND = new Map([...ENTITY_TYPES.values()].map(({ kind, collection }) => [kind, collection]));
const collectionOf = (kind: EntityKind): string => COLLECTION_OF_KIND.get(kind)!;
