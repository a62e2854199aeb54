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
import { BSON, type Collection, type Document, type Filter } from 'mongodb';
import { sharedReadReaders } from '../metrics/metrics.js';

/** The most keys one command asks for (the loaders' own batch size): a fuller group is sent and a new one begun. */
export const MAX_SHARED_KEYS = 1000;

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

/** Kinds of read with a command on its way or a group waiting: per collection, per filter object, per field and projection. */
const slots = new Map<Collection<Document>, Map<Document, Map<string, Slot>>>();
/** Groups to send at the end of this turn (full ones included). */
let toSend: Group[] = [];

const projectionKeys = new WeakMap<Document, string>();
function projectionKey(projection: Document): string {
  let key = projectionKeys.get(projection);
  if (key === undefined) projectionKeys.set(projection, (key = JSON.stringify(projection)));
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
export function findByKeys<T extends Document>(collection: Collection<T>, field: string, keys: readonly string[], filter: Filter<T>, projection: Document): Promise<T[]> {
  const coll = collection as unknown as Collection<Document>;
  let byFilter = slots.get(coll);
  if (!byFilter) slots.set(coll, (byFilter = new Map()));
  let byKind = byFilter.get(filter as Document);
  if (!byKind) byFilter.set(filter as Document, (byKind = new Map()));
  const kind = `${field}\u0000${projectionKey(projection)}`;
  let slot = byKind.get(kind);
  if (!slot) byKind.set(kind, (slot = { out: 0, home: byKind, key: kind }));
  const alone = slot.out === 0 && slot.waiting === undefined;
  let group = slot.waiting;
  if (!group || group.keys.size + keys.length > MAX_SHARED_KEYS) {
    group = { slot, collection: coll, field, filter: filter as Document, projection, keys: new Set(), readers: [] };
    if (!alone) {
      if (toSend.length === 0) setImmediate(flush);
      toSend.push(group);
      slot.waiting = group;
    }
  }
  for (const key of keys) group.keys.add(key);
  const promise = new Promise<T[]>((resolve, reject) => group.readers.push({ keys, resolve: resolve as (docs: Document[]) => void, reject }));
  if (alone) void send(group);
  return promise;
}

function flush(): void {
  const groups = toSend;
  toSend = [];
  for (const group of groups) if (group.slot.waiting === group) group.slot.waiting = undefined;
  for (const group of groups) void send(group);
}

async function send(group: Group): Promise<void> {
  const { slot } = group;
  slot.out++;
  try {
    await answer(group);
  } finally {
    if (--slot.out === 0 && slot.waiting === undefined) slot.home.delete(slot.key);
  }
}

async function answer(group: Group): Promise<void> {
  const keys = [...group.keys];
  const size = Math.max(1, keys.length);
  sharedReadReaders.observe(group.readers.length);
  let raw: Uint8Array[];
  try {
    raw = (await group.collection
      .find({ ...group.filter, [group.field]: { $in: keys } }, { projection: group.projection, limit: size, batchSize: size, raw: true })
      .toArray()) as unknown as Uint8Array[];
  } catch (error) {
    for (const reader of group.readers) reader.reject(error);
    return;
  }
  if (group.readers.length === 1) {
    group.readers[0]!.resolve(raw.map((bytes) => BSON.deserialize(bytes)));
    return;
  }
  // Each document to every reader of its key: the first gets the decoded one, any other its own decoding.
  const byKey = new Map<string, Uint8Array>();
  const decoded = new Map<string, Document>();
  for (const bytes of raw) {
    const doc = BSON.deserialize(bytes);
    const key = doc[group.field];
    if (typeof key !== 'string') continue;
    byKey.set(key, bytes);
    decoded.set(key, doc);
  }
  for (const reader of group.readers) {
    const docs: Document[] = [];
    for (const key of reader.keys.length > 1 ? new Set(reader.keys) : reader.keys) {
      const first = decoded.get(key);
      if (first) {
        docs.push(first);
        decoded.delete(key);
      } else {
        const bytes = byKey.get(key);
        if (bytes) docs.push(BSON.deserialize(bytes));
      }
    }
    reader.resolve(docs);
  }
}
