// One index of a collection: its spec, key extraction from documents, and its entries in LMDB's `keys`
// database: index id (u32) | one component per field, each followed by '\0' (order.ts) | the document's record
// id -> empty. A record id (collection.ts) is the key of the document in `docs` after the collection id: in a
// clustered collection (every one but capped ones) the document's `_id` component followed by '\0', in a
// capped one its insertion slot (12 hex digits). A unique index holds at most one document per key, so its
// entries are index id | components -> record id instead: looking up a whole key is one `get`, not a cursor
// probe (a range scan costs ~5 µs in lmdb-js, a get ~1 µs). The `_id_` index of a clustered collection has no
// entries of its own: the documents, keyed by their `_id` component, are its entries, so an `_id` lookup is the
// document's own get. `range` yields components then record id for every kind, so walks see one format.
// Equality on leading fields, ranges, ordered walks and counts are all key range scans; nothing per document
// lives in the heap. Per field the index keeps two counters (persisted with the catalog):
// documents holding several distinct values there (multikey: a sort then uses the min/max element, which no
// key order gives) and documents holding a value without an order component there; the planner walks a
// field only while they are zero.
import { Query } from 'mingo';
import type { Document } from 'bson';
import { collationOf, foldValues, type Collation } from '../collation/index.js';
import { keyRange, keyValueRange, prefixEnd, readStats, type StorageEnv, u32 } from './env.js';
import type { Database } from 'lmdb';
import { valuesAtPath } from './keys.js';
import { keyComponent, orderComponent, ridOf, SEP, typeRange } from './order.js';
import { KeyTooLongError } from '../errors.js';

export interface IndexSpec {
  v: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Document;
  /** The index's collation (collation/index.ts normalizeCollation); its string keys are collation keys. */
  collation?: Document;
  /** A non-unique index refusing new duplicate keys (collMod, on the way to `unique`); existing ones stay. */
  prepareUnique?: boolean;
}

/** One concrete key a document contributes: the components (each followed by SEP) and raw field values. */
export interface KeyEntry {
  key: string;
  values: unknown[];
}

/** A document's entries in one index, with per field whether it is multikey / holds unordered values. */
export interface DocKeys {
  entries: KeyEntry[];
  multi: boolean[];
  unordered: boolean[];
}

/** Persisted per-index state (with the catalog). */
export interface IndexMeta {
  id: number;
  spec: IndexSpec;
  multi: number[];
  unordered: number[];
}

/** A record id (the document's key in `docs` after the collection id). */
export type Rid = string;

/** LMDB's key size limit: no stored key is longer, so a lookup by a longer one finds nothing (lmdb itself would
 *  throw on it). */
export const LMDB_MAX_KEY = 1978;
/** LMDB's key size limit less the index id. */
const MAX_KEY_BYTES = LMDB_MAX_KEY - 4;
/** An `_id`'s component in a clustered collection: it is also the suffix of every secondary index entry, so it
 *  is held to MongoDB's former index key limit (1024 bytes), leaving at least 950 bytes to the other indexes. */
export const MAX_ID_BYTES = 1024;

/** Kept prefix counts per index. */
const MAX_CACHED_COUNTS = 256;
/** Entry changes journaled per write transaction and index (more: a count walk begun before it commits takes its
 *  snapshot once it has). */
const MAX_JOURNAL = 4096;

/** A kept count: `n` holds the write transactions up to `asOf` (read from a snapshot) and the later ones that
 *  have committed; `ready` once its walk is done (until then `n` gathers only the later changes). */
interface KeptCount {
  n: number;
  asOf: number;
  ready: boolean;
  /** The index was cleared or the count evicted: a walk under way is not kept. */
  dropped: boolean;
  walk?: Promise<void>;
}

/** How walkCount cuts a walk: chunks of keys sized to take about `chunkMs` each (tests make them small). */
export const countWalk = { firstChunk: 1024, minChunk: 64, maxChunk: 65_536, chunkMs: 4 };

const ZERO = Buffer.from([0]);

const EMPTY_ARRAY: unique symbol = Symbol('[]');
const NONE = Buffer.alloc(0);

/** Per-field element values: arrays contribute their elements (multikey), [] a marker of its own. */
function fieldValues(doc: Document, path: string[]): { values: unknown[]; present: boolean } {
  const out: unknown[] = [];
  let present = false;
  for (const v of valuesAtPath(doc, path)) {
    if (v !== undefined) present = true;
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(EMPTY_ARRAY);
      else out.push(...v);
    } else out.push(v);
  }
  return { values: out, present };
}

function component(v: unknown): { c: string; ordered: boolean } {
  // MongoDB indexes [] as undefined, which no scalar equality matches; it has no place in sort order.
  return v === EMPTY_ARRAY ? { c: '~[]', ordered: false } : keyComponent(v);
}

/**
 * True when index key equality is exactly MongoDB equality for `v`: strings, booleans, numbers (int, long
 * within 2^53 and double alike, as the driver decodes them; not NaN), valid dates and ObjectIds. An array
 * field matches such a value through its elements, as its multikey entries do.
 */
export function exactKey(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
    case 'object':
      if (v instanceof Date) return !Number.isNaN(v.getTime());
      return v !== null && (v as { _bsontype?: string })._bsontype === 'ObjectId';
    default:
      return false;
  }
}

/** The key prefix fixing the first fields to single values (each component followed by SEP). */
export function prefixKey(values: readonly unknown[]): string {
  let k = '';
  for (const v of values) k += component(v).c + SEP;
  return k;
}

export class Index {
  readonly paths: string[][];
  readonly fields: string[];
  private readonly partial?: Query;
  /** With a collation, strings are indexed by their collation key: equal under the collation = equal keys. */
  private readonly collation?: Collation;
  /** The table holding the entries and their common prefix: `keys` under the index id, or for the `_id_`
   *  index of a clustered collection `docs` under the collection id (the documents are the entries). */
  private readonly table: Database<Buffer, Buffer>;
  private readonly idPrefix: Buffer;
  /** The `_id_` index of a clustered collection: no entries of its own. */
  readonly clustered: boolean;
  /** Entry counts per key prefix asked for, as committed: kept exact by the writes (each change's delta is
   *  folded in once its transaction has committed), so a write does not send the next count over the index. */
  private readonly counts = new Map<string, KeptCount>();
  /** Deltas of kept counts made by write transactions whose commit has not completed, in transaction order. */
  private pending: Array<{ ticket: number; deltas: Map<string, number> }> = [];
  /** The entries changed by write transactions whose commit has not completed, in transaction order (undefined:
   *  too many to keep): a count read from a snapshot that lacks such a transaction adds its changes once it
   *  commits, though the count was not kept when the transaction ran. */
  private journal: Array<{ ticket: number; changes: Array<[string, number]> | undefined }> = [];
  /** Write transactions up to this one may have changed the entries without a journal here (an index made
   *  afresh, e.g. a catalog reloaded after a failed commit): a count from a snapshot older than that is not kept. */
  private blindTo: number;

  /** `clusteredIn`: the collection id, when this is the `_id_` index of a clustered collection. */
  constructor(
    private readonly env: StorageEnv,
    readonly meta: IndexMeta,
    clusteredIn?: number,
  ) {
    this.fields = Object.keys(meta.spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.clustered = clusteredIn !== undefined;
    this.table = this.clustered ? env.docs : env.keys;
    this.idPrefix = u32(clusteredIn ?? meta.id);
    if (meta.spec.partialFilterExpression) this.partial = new Query(meta.spec.partialFilterExpression, {});
    this.collation = collationOf(meta.spec.collation);
    this.blindTo = env.inWrite ? env.writeTicket - 1 : env.lastTicket;
  }

  get spec(): IndexSpec {
    return this.meta.spec;
  }

  get name(): string {
    return this.meta.spec.name;
  }

  get id(): number {
    return this.meta.id;
  }

  /** _id_ is always unique, though listIndexes (like MongoDB) does not say so. */
  get unique(): boolean {
    return this.spec.unique === true || this.spec.name === '_id_';
  }

  /** A single-field index with expireAfterSeconds. */
  get ttl(): boolean {
    return typeof this.spec.expireAfterSeconds === 'number' && this.fields.length === 1;
  }

  /** Hashed indexes keep no order; partial ones may lack matching documents. */
  get orderable(): boolean {
    return !this.spec.partialFilterExpression && Object.values(this.spec.key).every((d) => d === 1 || d === -1);
  }

  /** Keys a document contributes; none when sparse/partial rules exclude it. */
  keys(doc: Document): DocKeys {
    const n = this.fields.length;
    const multi = new Array<boolean>(n).fill(false);
    const unordered = new Array<boolean>(n).fill(false);
    if (this.partial && !this.partial.test(doc)) return { entries: [], multi, unordered };
    const per = this.paths.map((p) => fieldValues(doc, p));
    if (this.spec.sparse && per.every((f) => !f.present)) return { entries: [], multi, unordered };
    // Cartesian product over fields (MongoDB allows at most one array field, so this stays small).
    let tuples: Array<{ key: string; values: unknown[] }> = [{ key: '', values: [] }];
    per.forEach((f, i) => {
      const next: typeof tuples = [];
      const seen = new Set<string>();
      for (const v of f.values) {
        const { c, ordered } = component(this.collation ? foldValues(v, this.collation) : v);
        if (seen.has(c)) continue;
        seen.add(c);
        if (!ordered) unordered[i] = true;
        for (const t of tuples) next.push({ key: t.key + c + SEP, values: [...t.values, v] });
      }
      multi[i] = seen.size > 1;
      tuples = next;
    });
    const entries = tuples.map((t) => ({ key: t.key, values: t.values.map((v) => (v === EMPTY_ARRAY ? [] : v)) }));
    return { entries, multi, unordered };
  }

  /** Throws KeyTooLongError when an entry cannot be stored (`rid`: the record id a non-unique entry ends with). */
  checkSize(keys: DocKeys, ns: string, rid: Rid): void {
    const max = this.clustered ? MAX_ID_BYTES : this.unique ? MAX_KEY_BYTES : MAX_KEY_BYTES - Buffer.byteLength(rid);
    for (const e of keys.entries) {
      const bytes = Buffer.byteLength(e.key);
      if (bytes > max) throw new KeyTooLongError(ns, this.name, bytes, max);
    }
  }

  /**
   * The entry of `keys` that collides with another record in a unique index, if any. In a `prepareUnique`
   * index, the entry new to the document (not among `old`, its keys before an update) that another record
   * already has: existing duplicates stay, new ones are refused.
   */
  conflict(keys: DocKeys, self: Rid | undefined, old?: DocKeys): KeyEntry | undefined {
    if (this.unique) {
      for (const e of keys.entries) {
        const r = this.get(e.key);
        if (r !== undefined && r !== self) return e;
      }
      return undefined;
    }
    if (!this.spec.prepareUnique) return undefined;
    const had = old && new Set(old.entries.map((e) => e.key));
    for (const e of keys.entries) {
      if (had?.has(e.key)) continue;
      for (const r of this.lookup(e.key, 2)) if (r !== self) return e;
    }
    return undefined;
  }

  /** The record ids sharing a key, one group per key held by several (a non-unique index turned unique must
   *  have none), in key order. */
  *duplicates(): Generator<Rid[]> {
    if (this.unique) return;
    let comps: string | undefined;
    let group: Rid[] = [];
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) {
      const key = k.toString('utf8', 4);
      const rid = ridOf(key, this.fields.length);
      const c = key.slice(0, key.length - rid.length);
      if (c === comps) {
        group.push(rid);
        continue;
      }
      if (group.length > 1) yield group;
      comps = c;
      group = [rid];
    }
    if (group.length > 1) yield group;
  }

  /**
   * Turns a non-unique index with no duplicate keys (see duplicates) unique under `spec`: each entry moves from
   * components | record id to the unique layout, components -> record id. The entries, and so every count kept
   * of them, stay the same.
   */
  makeUnique(spec: IndexSpec): void {
    if (this.unique || spec.unique !== true) throw new Error(`index ${this.name} is unique already, or the new spec is not`);
    const n = this.fields.length;
    // Forward: each entry's new key is a prefix of its old one, so it sorts before the keys still to be read.
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) {
      const key = k.toString('utf8', 4);
      const rid = ridOf(key, n);
      this.env.keys.removeSync(k);
      this.env.keys.putSync(this.prefixBuffer(key.slice(0, key.length - rid.length)), Buffer.from(rid, 'utf8'));
    }
    this.meta.spec = spec;
  }

  /** The stored key of an entry: with the record id appended, except in a unique index (it is the value). */
  private keyBuffer(key: string, rid: Rid): Buffer {
    return this.unique ? this.prefixBuffer(key) : this.prefixBuffer(key + rid);
  }

  private prefixBuffer(key: string): Buffer {
    const len = Buffer.byteLength(key);
    const b = Buffer.allocUnsafe(4 + len);
    this.idPrefix.copy(b, 0);
    b.write(key, 4, 'utf8');
    return b;
  }

  private put(key: string, rid: Rid): void {
    this.env.keys.putSync(this.keyBuffer(key, rid), this.unique ? Buffer.from(rid, 'utf8') : NONE);
  }

  add(rid: Rid, keys: DocKeys): void {
    if (!this.clustered) for (const e of keys.entries) this.put(e.key, rid);
    for (const e of keys.entries) this.record(e.key, 1);
    this.track(keys, 1);
  }

  remove(rid: Rid, keys: DocKeys): void {
    if (!this.clustered) for (const e of keys.entries) this.env.keys.removeSync(this.keyBuffer(e.key, rid));
    for (const e of keys.entries) this.record(e.key, -1);
    this.track(keys, -1);
  }

  /** Moves a document from `old` to `next` keys, touching only the entries that differ. */
  change(rid: Rid, old: DocKeys, next: DocKeys): void {
    // A clustered `_id_` index has no entries of its own, and an update keeps the `_id`: nothing to move or count.
    if (this.clustered) return this.retrack(old, next);
    const before = new Set(old.entries.map((e) => e.key));
    const after = new Set(next.entries.map((e) => e.key));
    for (const k of before) {
      if (after.has(k)) continue;
      if (!this.clustered) this.env.keys.removeSync(this.keyBuffer(k, rid));
      this.record(k, -1);
    }
    for (const k of after) {
      if (before.has(k)) continue;
      if (!this.clustered) this.put(k, rid);
      this.record(k, 1);
    }
    this.retrack(old, next);
  }

  private retrack(old: DocKeys, next: DocKeys): void {
    this.track(old, -1);
    this.track(next, 1);
  }

  private track(keys: DocKeys, delta: 1 | -1): void {
    for (let i = 0; i < this.fields.length; i++) {
      if (keys.multi[i]) this.meta.multi[i]! += delta;
      if (keys.unordered[i]) this.meta.unordered[i]! += delta;
    }
  }

  /** Deletes every entry (dropping the index or its collection; a clustered `_id_` index's are the documents). */
  clear(): void {
    for (const entry of this.counts.values()) entry.dropped = true;
    this.counts.clear();
    this.pending = [];
    this.journal = [];
    this.blindTo = this.env.writeTicket; // counts from snapshots before this transaction are not of these entries
    if (this.clustered) return;
    const end = prefixEnd(this.idPrefix);
    for (const k of keyRange(this.env.keys, this.idPrefix, end)) this.env.keys.removeSync(k);
  }

  /**
   * Records an entry's change by the running write transaction: in its journal, and against every kept count
   * whose prefix (whole leading components) it falls under.
   */
  private record(key: string, delta: 1 | -1): void {
    const ticket = this.env.writeTicket;
    let j = this.journal[this.journal.length - 1];
    if (j?.ticket !== ticket) {
      this.settle();
      j = { ticket, changes: [] };
      this.journal.push(j);
    }
    if (j.changes && j.changes.length >= MAX_JOURNAL) j.changes = undefined;
    j.changes?.push([key, delta]);
    if (this.counts.size === 0) return;
    let at = -1;
    for (let i = 0; i <= this.fields.length; i++) {
      const prefix = key.slice(0, at + 1); // '' (every entry), then one component more each time
      if (this.counts.has(prefix)) this.pendingDeltas(ticket).set(prefix, (this.pendingDeltas(ticket).get(prefix) ?? 0) + delta);
      at = key.indexOf(SEP, at + 1);
      if (at < 0) break;
    }
  }

  /** Stops keeping the count under `prefix` (with the deltas waiting for it: a count kept again later takes
   *  them from the journal). */
  private forget(prefix: string): void {
    const c = this.counts.get(prefix);
    if (c) c.dropped = true;
    this.counts.delete(prefix);
    for (const p of this.pending) p.deltas.delete(prefix);
  }

  /** The kept-count deltas of write transaction `ticket` (created in transaction order). */
  private pendingDeltas(ticket: number): Map<string, number> {
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.ticket > ticket) i--;
    const at = this.pending[i - 1];
    if (at?.ticket === ticket) return at.deltas;
    const entry = { ticket, deltas: new Map<string, number>() };
    this.pending.splice(i, 0, entry);
    return entry.deltas;
  }

  /** The kept counts, as committed; undefined while a change of the index waits for its commit. */
  keptCounts(): Array<[string, number]> | undefined {
    this.settle();
    if (this.pending.length > 0 || this.journal.length > 0) return undefined;
    return [...this.counts].filter(([, c]) => c.ready).map(([prefix, c]) => [prefix, c.n]);
  }

  /** Takes counts kept by an earlier run over the same entries (Catalog.saveKeptCounts says when they are). */
  restoreCounts(entries: ReadonlyArray<readonly [string, number]>): void {
    for (const [prefix, n] of entries) {
      if (this.counts.size >= MAX_CACHED_COUNTS) return;
      if (typeof prefix === 'string' && Number.isInteger(n) && n >= 0) this.counts.set(prefix, { n, asOf: this.env.lastTicket, ready: true, dropped: false });
    }
  }

  /** Made afresh for the same index after the write transaction `aborted` was discarded: keeps `was`'s counts
   *  (walks under way included) and the changes still waiting for their commit, but not the discarded
   *  transaction's. */
  adopt(was: Index, aborted: number): void {
    for (const [prefix, c] of was.counts) this.counts.set(prefix, c);
    this.pending = was.pending.filter((e) => e.ticket !== aborted);
    this.journal = was.journal.filter((e) => e.ticket !== aborted);
    this.blindTo = was.blindTo;
  }

  /** Folds the deltas of committed transactions into the kept counts (those not read after the transaction). */
  private settle(): void {
    while (this.journal.length > 0 && this.env.isCommitted(this.journal[0]!.ticket)) this.journal.shift();
    while (this.pending.length > 0 && this.env.isCommitted(this.pending[0]!.ticket)) {
      const { ticket, deltas } = this.pending.shift()!;
      for (const [prefix, d] of deltas) {
        const c = this.counts.get(prefix);
        if (c && ticket > c.asOf) c.n += d;
      }
    }
  }

  private bounds(prefix: string): [Buffer, Buffer] {
    const start = Buffer.concat([this.idPrefix, Buffer.from(prefix, 'utf8')]);
    // A prefix longer than any stored key (a query value of kilobytes) starts no entry: an empty range.
    if (start.length > LMDB_MAX_KEY) return [this.idPrefix, this.idPrefix];
    return [start, prefixEnd(start)];
  }

  /** The committed count under `prefix`, when it is kept (undefined inside a write transaction, which sees its
   *  own changes). */
  kept(prefix: string): number | undefined {
    if (this.env.inWrite) return undefined;
    this.settle();
    const c = this.counts.get(prefix);
    return c?.ready ? c.n : undefined;
  }

  /**
   * Starts keeping the count under `prefix`, read from a snapshot holding the write transactions up to `asOf`:
   * the changes of later ones (their journals, then what they record) are folded in as they commit. Undefined
   * when it cannot be kept exactly (a later transaction's journal overflowed, or the snapshot is older than
   * what this index can account for).
   */
  private keep(prefix: string, asOf: number, n: number, ready: boolean): KeptCount | undefined {
    this.settle();
    // A walk of the prefix under way keeps it already.
    if (asOf < this.blindTo || this.counts.has(prefix)) return undefined;
    const later = this.journal.filter((j) => j.ticket > asOf);
    if (later.some((j) => !j.changes)) return undefined;
    if (this.counts.size >= MAX_CACHED_COUNTS) {
      for (const [p, c] of this.counts) if (c.ready) this.forget(p);
    }
    const entry: KeptCount = { n, asOf, ready, dropped: false };
    this.counts.set(prefix, entry);
    for (const j of later) {
      let d = 0;
      for (const [key, delta] of j.changes!) if (key.startsWith(prefix)) d += delta;
      if (d !== 0) {
        const deltas = this.pendingDeltas(j.ticket);
        deltas.set(prefix, (deltas.get(prefix) ?? 0) + d);
      }
    }
    return entry;
  }

  /**
   * Number of entries under a key prefix (whole components); a document counts once per distinct entry.
   * Counted over the index once, then kept exact by the writes: a count of a million keys walks the index for
   * hundreds of milliseconds (seconds from a cold page cache), and the same totals are asked for again and
   * again while writes go on. Inside a write transaction (which sees its own changes) always counted afresh.
   * This walk is synchronous; walkCount walks in chunks that let other work run.
   */
  count(prefix: string): number {
    const kept = this.kept(prefix);
    if (kept !== undefined) return kept;
    const [start, end] = this.bounds(prefix);
    readStats.indexCounts++;
    if (this.env.inWrite) return this.table.getKeysCount({ start, end });
    const snap = this.env.snapshot();
    try {
      const n = this.table.getKeysCount({ start, end, transaction: snap.txn });
      this.keep(prefix, snap.ticket, n, true);
      return n;
    } finally {
      snap.done();
    }
  }

  /** The count under `prefix` when it is kept or has at most `small` entries (then walked and kept), else
   *  undefined (a walk for walkCount). */
  countIfSmall(prefix: string, small: number): number | undefined {
    const kept = this.kept(prefix);
    if (kept !== undefined || this.env.inWrite) return kept;
    const [start, end] = this.bounds(prefix);
    const snap = this.env.snapshot();
    try {
      for (const _ of this.table.getKeys({ start, end, offset: small, limit: 1, transaction: snap.txn })) return undefined;
      const n = this.table.getKeysCount({ start, end, transaction: snap.txn });
      readStats.indexCounts++;
      this.keep(prefix, snap.ticket, n, true);
      return n;
    } finally {
      snap.done();
    }
  }

  /**
   * Walks the entries under `prefix` and keeps their count, in chunks between which the event loop runs
   * (a million keys from a cold page cache take seconds). The chunks read one snapshot; the changes committed
   * after it, before or during the walk, are folded in as for any kept count. Walks of the same prefix share
   * one. Resolves once the count is kept, or when it cannot be (the index dropped meanwhile, a change too
   * large to account for).
   */
  walkCount(prefix: string): Promise<void> {
    if (this.kept(prefix) !== undefined) return Promise.resolve();
    const c = this.counts.get(prefix);
    if (c?.walk && !c.dropped) return c.walk;
    return this.walkChunks(prefix);
  }

  private walkChunks(prefix: string): Promise<void> {
    const begun = this.beginWalk(prefix);
    if (!begun) return Promise.resolve();
    const [entry, waitFor] = begun;
    let finish!: () => void;
    entry.walk = new Promise<void>((resolve) => (finish = resolve));
    // A storage error ends the walk unkept (the command asking for it runs again and counts on its own).
    void this.walkFrom(prefix, entry, waitFor)
      .catch(() => undefined)
      .finally(() => {
        entry.walk = undefined;
        // A walk that stopped before the end (the engine closing, the index dropped, a storage error) leaves no
        // half-made count behind: one left unready would keep every later count of this prefix from being kept
        // or walked again.
        if (!entry.ready && this.counts.get(prefix) === entry) this.forget(prefix);
        finish();
      });
    return entry.walk;
  }

  /**
   * Starts keeping the count under `prefix` before its snapshot is taken: from now on every write transaction
   * that runs records its changes under the prefix against it (record), whatever their number. The transactions
   * that ran before and have not committed are accounted for from their journals; those whose journal
   * overflowed (and a reloaded index's blind ones) cannot be, so the snapshot is taken once they have committed:
   * the returned ticket. Until then the count is read as of no snapshot (asOf: Infinity), so the deltas of the
   * transactions committing meanwhile, which the snapshot will hold, are not folded in.
   */
  private beginWalk(prefix: string): [KeptCount, number] | undefined {
    this.settle();
    if (this.counts.has(prefix)) return undefined;
    if (this.counts.size >= MAX_CACHED_COUNTS) {
      for (const [p, c] of this.counts) if (c.ready) this.forget(p);
    }
    const entry: KeptCount = { n: 0, asOf: Infinity, ready: false, dropped: false };
    this.counts.set(prefix, entry);
    let waitFor = this.blindTo;
    for (const j of this.journal) {
      if (!j.changes) {
        waitFor = Math.max(waitFor, j.ticket);
        continue;
      }
      let d = 0;
      for (const [key, delta] of j.changes) if (key.startsWith(prefix)) d += delta;
      if (d !== 0) {
        const deltas = this.pendingDeltas(j.ticket);
        deltas.set(prefix, (deltas.get(prefix) ?? 0) + d);
      }
    }
    return [entry, waitFor];
  }

  private async walkFrom(prefix: string, entry: KeptCount, waitFor: number): Promise<void> {
    await this.env.whenCommitted(waitFor);
    if (entry.dropped || this.env.closing) return;
    const snap = this.env.snapshot();
    try {
      // Transactions up to `waitFor` have committed, so the snapshot holds them (and perhaps later ones); one
      // older than a reloaded index's blind transactions (a commit that failed) cannot be accounted for.
      if (snap.ticket < this.blindTo) return;
      entry.asOf = snap.ticket;
      readStats.indexCounts++;
      const [start, end] = this.bounds(prefix);
      const txn = snap.txn;
      let from = start;
      let n = 0;
      let chunk = countWalk.firstChunk;
      for (;;) {
        const began = performance.now();
        let last: Buffer | undefined;
        for (const k of this.table.getKeys({ start: from, end, offset: chunk - 1, limit: 1, transaction: txn })) last = k;
        if (!last) {
          n += this.table.getKeysCount({ start: from, end, transaction: txn });
          break;
        }
        n += chunk;
        from = Buffer.concat([last, ZERO]);
        const took = performance.now() - began;
        if (took < countWalk.chunkMs / 4) chunk = Math.min(chunk * 2, countWalk.maxChunk);
        else if (took > countWalk.chunkMs) chunk = Math.max(Math.floor(chunk / 2), countWalk.minChunk);
        await new Promise((resolve) => setImmediate(resolve));
        if (entry.dropped || this.env.closing) return;
      }
      if (!entry.dropped) {
        entry.n += n;
        entry.ready = true;
      }
    } finally {
      snap.done();
    }
  }

  /** Like count, but stops counting past `cap` (the planner's estimate: it only needs to tell small sets
   *  apart, and a count of a million keys costs tens of milliseconds). */
  countUpTo(prefix: string, cap: number): number {
    const [start, end] = this.bounds(prefix);
    let n = 0;
    for (const _ of this.table.getKeys({ start, end, limit: cap + 1 })) n++;
    return n;
  }

  /** The record id of a whole key (every field's component) in a unique index: one LMDB get. */
  get(key: string): Rid | undefined {
    if (!this.unique) throw new Error(`index ${this.name} is not unique`);
    const k = this.prefixBuffer(key);
    if (k.length > LMDB_MAX_KEY) return undefined;
    if (this.clustered) return this.env.docs.doesExist(k) ? key : undefined;
    const v = this.env.keys.getBinaryFast(k);
    return v ? v.toString('utf8', 0, v.length) : undefined;
  }

  /** Whether every field is part of a lookup of `fields` leading fields: a unique index then holds one
   *  entry at most per key, found with `get`. */
  whole(fields: number): boolean {
    return this.unique && fields === this.fields.length;
  }

  /**
   * Record ids of the entries under a key prefix (whole components), in key order. `unchecked`: a whole key
   * of the clustered `_id_` index is its record id, yielded without reading whether the document exists
   * (the caller reads the document anyway and skips a missing one).
   */
  *lookup(prefix: string, limit = Infinity, unchecked = false): Generator<Rid> {
    if (limit <= 0) return;
    if (this.whole(countComponents(prefix))) {
      const r = unchecked && this.clustered ? prefix : this.get(prefix);
      if (r !== undefined) yield r;
      return;
    }
    const [start, end] = this.bounds(prefix);
    let n = 0;
    if (this.clustered) {
      for (const k of keyRange(this.env.docs, start, end)) {
        if (n++ >= limit) return;
        yield k.toString('utf8', 4);
      }
      return;
    }
    if (this.unique) {
      for (const [, v] of keyValueRange(this.env.keys, start, end, false)) {
        if (n++ >= limit) return;
        yield v.toString('utf8');
      }
      return;
    }
    for (const k of keyRange(this.env.keys, start, end)) {
      if (n++ >= limit) return;
      yield ridOf(k.toString('utf8', 4), this.fields.length);
    }
  }

  /** Key strings (components, then the record id) k with lo <= k < hi, ascending or descending. */
  *range(lo: string, hi: string, backward: boolean): Generator<string> {
    if (lo >= hi) return;
    const start = Buffer.concat([this.idPrefix, Buffer.from(lo, 'utf8')]);
    const end = Buffer.concat([this.idPrefix, Buffer.from(hi, 'utf8')]);
    if (this.clustered) {
      for (const k of keyRange(this.env.docs, start, end, backward)) {
        const rid = k.toString('utf8', 4);
        yield rid + rid;
      }
      return;
    }
    if (this.unique) {
      for (const [k, v] of keyValueRange(this.env.keys, start, end, backward)) yield k.toString('utf8', 4) + v.toString('utf8');
      return;
    }
    for (const k of keyRange(this.env.keys, start, end, backward)) yield k.toString('utf8', 4);
  }

  /** Number of entries k with lo <= k < hi. */
  rangeCount(lo: string, hi: string): number {
    if (lo >= hi) return 0;
    const start = Buffer.concat([this.idPrefix, Buffer.from(lo, 'utf8')]);
    const end = Buffer.concat([this.idPrefix, Buffer.from(hi, 'utf8')]);
    return this.table.getKeysCount({ start, end });
  }

  /** TTL: record ids whose earliest date in the field plus expireAfterSeconds is at or before `now`
   *  (any date entry at or before the cutoff; non-dates never expire). */
  *expired(now: number): Generator<Rid> {
    const cutoff = orderComponent(new Date(now - (this.spec.expireAfterSeconds ?? 0) * 1000));
    if (cutoff === undefined) return;
    const [lo] = typeRange(cutoff);
    for (const k of this.range(lo, cutoff + '\x01', false)) yield ridOf(k, this.fields.length);
  }

  /**
   * Whether the first `n` fields hold only values with an order component and the fields at `single`
   * hold one value per document, i.e. whether key order is the sort order there.
   */
  usable(n: number, single: number[]): boolean {
    return this.meta.unordered.slice(0, n).every((c) => c === 0) && single.every((i) => this.meta.multi[i] === 0);
  }

  /** Whether no document holds several values in any field from `from` on (each document has one entry
   *  under a prefix fixing the fields before `from`, so counting entries counts documents). */
  singleFrom(from: number): boolean {
    return this.meta.multi.slice(from).every((c) => c === 0);
  }
}

/** Number of whole components in a key prefix. */
function countComponents(prefix: string): number {
  let n = 0;
  for (let at = prefix.indexOf(SEP); at >= 0; at = prefix.indexOf(SEP, at + 1)) n++;
  return n;
}
