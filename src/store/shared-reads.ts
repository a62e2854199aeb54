// Reads of documents by key that concurrent requests make at the same moment, sent as one command.
//
// Each request batches its own reads (its DataLoaders), but under load many requests ask for the same kind of
// document at once: the requests whose bytes arrived in one turn of the event loop each run until their first store
// read before the next one starts, so fifty readers of `article(id:)` sent fifty `find`s a few microseconds apart.
// Here a read by key whose kind (collection, filter, projection) already has a command on its way waits for the end
// of that turn (setImmediate: after every request that arrived with it has reached its own reads) and goes out with
// every other read of its kind as one `$in` of their keys; one with nothing of its kind on its way leaves at once, so
// a lone reader waits for nothing. Each request still gets only the documents of its own keys, decoded for it alone
// (no object is shared between requests), and a failed command fails the reads that were in it, which is what they
// would have met on their own. Written by hand: DataLoader batches per loader instance, and a loader shared by
// requests would share its cache and its documents between readers too.
import { BSON, type Collection, type Document } from 'mongodb';
import { sharedReadReaders } from '../metrics/metrics.js';
import { decoded } from './read.js';

/** The most keys one command asks for (the loaders' own batch size): a fuller group is sent and a new one begun. */
export const MAX_SHARED_KEYS = 1000;
/**
 * The most characters of keys one command merges: a read that would take a group past it starts another (one larger
 * alone goes alone, as it would have before). Ids from clients are at most 64 characters, but keys read from stored
 * documents are whatever another system wrote: merged, they must never make a command too large for the store,
 * which would fail every read in it for one reader's keys.
 */
export const MAX_SHARED_KEY_CHARS = 256 * 1024;

interface Reader {
  keys: readonly string[];
  resolve(docs: Document[]): void;
  reject(error: unknown): void;
}

interface Group {
  slot: Slot;
  collection: Collection<Document>;
  field: string;
  filter: Document;
  projection: Document;
  keys: Set<string>;
  chars: number;
  readers: Reader[];
}

/** One kind of read (collection, filter, field and projection): its commands on their way, and the group waiting. */
interface Slot {
  out: number;
  waiting?: Group;
  /** Where it is kept, and under what: dropped from there once nothing of its kind is out or waiting. */
  home: Map<string, Slot>;
  key: string;
}

/**
 * Kinds of read with a command on its way or a group waiting: per collection, per filter object, per field and
 * projection. Weak at the first two levels: a store's collections and a caller's filter objects are let go with them.
 */
const slots = new WeakMap<Collection<Document>, WeakMap<Document, Map<string, Slot>>>();
/** Groups to send at the end of this turn (full ones included). */
let toSend: Group[] = [];

/** A projection's fields in order of name: the same projection selected in another order is the same kind of read. */
const projectionKeys = new WeakMap<Document, string>();
function projectionKey(projection: Document): string {
  let key = projectionKeys.get(projection);
  if (key === undefined)
    projectionKeys.set(
      projection,
      (key = JSON.stringify(Object.entries(projection).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))),
    );
  return key;
}

/**
 * The documents matching `filter` whose `field` (unique in the collection, holding strings) is one of `keys`, in
 * any order, with `projection`. `filter` should be a constant object: reads merge by its identity.
 *
 * A read of a kind with no command on its way leaves at once, as it would alone (one reader at a time loses
 * nothing then: the store is waiting for it). Otherwise it waits for the end of the turn and leaves with the
 * other reads of its kind made meanwhile, as Nagle's algorithm holds small writes while one is unanswered.
 */
export function findByKeys<T extends Document>(
  collection: Collection<T>,
  field: string,
  keys: readonly string[],
  filter: Document,
  projection: Document,
): Promise<T[]> {
  const coll = collection as unknown as Collection<Document>;
  let byFilter = slots.get(coll);
  if (!byFilter) slots.set(coll, (byFilter = new WeakMap()));
  let byKind = byFilter.get(filter);
  if (!byKind) byFilter.set(filter, (byKind = new Map()));
  const kind = `${field}\u0000${projectionKey(projection)}`;
  let slot = byKind.get(kind);
  if (!slot) byKind.set(kind, (slot = { out: 0, home: byKind, key: kind }));
  const alone = slot.out === 0 && slot.waiting === undefined;
  let chars = 0;
  for (const key of keys) chars += key.length;
  let group = slot.waiting;
  if (!group || group.keys.size + keys.length > MAX_SHARED_KEYS || group.chars + chars > MAX_SHARED_KEY_CHARS) {
    group = { slot, collection: coll, field, filter, projection, keys: new Set(), chars: 0, readers: [] };
    if (!alone) {
      if (toSend.length === 0) setImmediate(flush);
      toSend.push(group);
      slot.waiting = group;
    }
  }
  for (const key of keys) group.keys.add(key);
  group.chars += chars;
  const promise = new Promise<T[]>((resolve, reject) =>
    group.readers.push({ keys, resolve: resolve as (docs: Document[]) => void, reject }),
  );
  if (alone) send(group);
  return promise;
}

function flush(): void {
  const groups = toSend;
  toSend = [];
  for (const group of groups) if (group.slot.waiting === group) group.slot.waiting = undefined;
  for (const group of groups) send(group);
}

/** Sends a group's command and answers its readers; never rejects (each reader is answered or rejected). */
function send(group: Group): void {
  const { slot } = group;
  slot.out++;
  answer(group)
    .catch((error: unknown) => {
      for (const reader of group.readers) reader.reject(error);
    })
    .finally(() => {
      if (--slot.out === 0 && slot.waiting === undefined) slot.home.delete(slot.key);
    });
}

/**
 * The key of a document that does not decode (a string of invalid UTF-8 written by another system): read again
 * without checking UTF-8, only to tell whose read it fails.
 */
function keyOfUndecodable(bytes: Uint8Array, field: string): unknown {
  try {
    return BSON.deserialize(bytes, { validation: { utf8: false } })[field];
  } catch {
    return undefined;
  }
}

async function answer(group: Group): Promise<void> {
  const keys = [...group.keys];
  const size = Math.max(1, keys.length);
  sharedReadReaders.observe(group.readers.length);
  // `limit` only where the key is unique whatever the indexes (`_id`): by another field, a duplicate that a missing
  // unique index let in would push another reader's document out of the merged answer.
  const raw = (await group.collection
    .find(
      { ...group.filter, [group.field]: { $in: keys } },
      { projection: group.projection, batchSize: size, ...(group.field === '_id' ? { limit: size } : {}), raw: true },
    )
    .toArray()) as unknown as Uint8Array[];
  if (group.readers.length === 1) {
    // As a read alone answered before: every document found (one that does not decode fails the read).
    group.readers[0]!.resolve(decoded(raw));
    return;
  }
  // Each document to every reader of its key: the first gets the decoded one, any other its own decoding. A document
  // that does not decode fails the reads of its key only (or of every reader, when its key cannot be told either).
  const byKey = new Map<string, Uint8Array>();
  const decodedByKey = new Map<string, Document>();
  const failed = new Map<string, unknown>();
  let unattributed: unknown;
  for (const bytes of raw) {
    let doc: Document;
    try {
      doc = BSON.deserialize(bytes);
    } catch (error) {
      const key = keyOfUndecodable(bytes, group.field);
      if (typeof key === 'string') failed.set(key, error);
      else unattributed ??= error;
      continue;
    }
    // Only documents whose key is one of the keys asked for, as strings, are anyone's (the loaders read nothing else).
    const key = doc[group.field];
    if (typeof key !== 'string') continue;
    byKey.set(key, bytes);
    decodedByKey.set(key, doc);
  }
  if (unattributed !== undefined) throw unattributed;
  for (const reader of group.readers) {
    const docs: Document[] = [];
    let error: unknown;
    for (const key of reader.keys.length > 1 ? new Set(reader.keys) : reader.keys) {
      if (failed.has(key)) {
        error = failed.get(key);
        break;
      }
      const first = decodedByKey.get(key);
      if (first) {
        docs.push(first);
        decodedByKey.delete(key);
      } else {
        const bytes = byKey.get(key);
        if (bytes) docs.push(BSON.deserialize(bytes));
      }
    }
    if (error === undefined) reader.resolve(docs);
    else reader.reject(error);
  }
}
