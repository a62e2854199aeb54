// Index DDL: createIndexes (idempotent for identical specs, 85/86 on conflicts), listIndexes, dropIndexes.
import type { Document } from 'bson';
import { encode } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import type { IndexSpec } from '../storage/index-keys.js';
import { encodeKey } from '../storage/keys.js';
import { collationId, normalizeCollation } from '../collation/index.js';
import { collName, type Handler } from './context.js';
import { optDoc, optInt } from './args.js';
import { CommandError } from '../errors.js';
import { firstBatchReply } from './batches.js';

const ALLOWED = new Set([
  'key',
  'name',
  'unique',
  'sparse',
  'expireAfterSeconds',
  'partialFilterExpression',
  'collation',
  'prepareUnique',
  'background',
  'v',
  'ns',
]);

function show(d: Document): string {
  return JSON.stringify(d)
    .replace(/"(\w+)":/g, '$1: ')
    .replace(/,/g, ', ');
}

/** Validates a requested index and returns it in listIndexes form. */
function normaliseSpec(raw: Document): IndexSpec {
  const key = optDoc(raw.key, 'key');
  if (!key || Object.keys(key).length === 0) throw new CommandError('CannotCreateIndex', 'Index keys cannot be empty.');
  if (typeof raw.name !== 'string' || !raw.name)
    throw new CommandError('FailedToParse', "The 'name' field is a required property of an index specification");
  for (const k of Object.keys(raw)) {
    if (!ALLOWED.has(k))
      throw new CommandError('CommandNotSupported', `index option '${k}' is not supported by the embedded engine`);
  }
  for (const [field, dir] of Object.entries(key)) {
    const ok = (typeof dir === 'number' && dir !== 0 && !Number.isNaN(dir)) || dir === 'hashed';
    if (!ok) {
      if (typeof dir === 'string')
        throw new CommandError(
          'CannotCreateIndex',
          `'${dir}' indexes are not supported by the embedded engine (field '${field}')`,
        );
      throw new CommandError(
        'CannotCreateIndex',
        `Values in the index key pattern can't be 0 or non-numeric: ${field}`,
      );
    }
  }
  const spec: IndexSpec = { v: 2, key, name: raw.name };
  if (raw.unique === true) spec.unique = true;
  if (raw.sparse === true) spec.sparse = true;
  if (raw.expireAfterSeconds !== undefined) {
    const s = Number(raw.expireAfterSeconds);
    if (!Number.isFinite(s) || s < 0)
      throw new CommandError(
        'CannotCreateIndex',
        "TTL index 'expireAfterSeconds' option must be within an acceptable range",
      );
    if (Object.keys(key).length > 1)
      throw new CommandError(
        'CannotCreateIndex',
        'TTL indexes are single-field indexes, compound indexes do not support TTL.',
      );
    spec.expireAfterSeconds = Math.trunc(s);
  }
  if (raw.partialFilterExpression !== undefined)
    spec.partialFilterExpression = optDoc(raw.partialFilterExpression, 'partialFilterExpression');
  const collation = normalizeCollation(optDoc(raw.collation, 'collation'));
  if (collation) spec.collation = collation;
  // MongoDB ignores prepareUnique on a unique index (SERVER-66563).
  if (raw.prepareUnique === true && !spec.unique) spec.prepareUnique = true;
  return spec;
}

/** The same key pattern under the same collation (MongoDB allows one index per key pattern and collation). */
const sameKey = (a: IndexSpec, b: IndexSpec): boolean =>
  encodeKey(a.key) === encodeKey(b.key) && collationId(a.collation) === collationId(b.collation);
const same = (a: IndexSpec, b: IndexSpec): boolean => encodeKey(a) === encodeKey(b);

/** Returns true if `spec` already exists identically; throws on MongoDB's conflict cases. */
function exists(coll: Collection, spec: IndexSpec): boolean {
  const byName = coll.indexes.get(spec.name);
  if (byName) {
    if (same(byName.spec, spec)) return true;
    // Same name and key, differing only in an option that does not identify the index (expireAfterSeconds):
    // MongoDB answers 85, which "catch 85, drop and recreate" code relies on. Anything else is 86.
    const { expireAfterSeconds: _a, ...was } = byName.spec;
    const { expireAfterSeconds: _b, ...now } = spec;
    if (same(was as IndexSpec, now as IndexSpec))
      throw new CommandError(
        'IndexOptionsConflict',
        `An equivalent index already exists with the same name but different options. Requested index: ${show(spec)}, existing index: ${show(byName.spec)}`,
      );
    throw new CommandError(
      'IndexKeySpecsConflict',
      `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${show(spec)}, existing index: ${show(byName.spec)}`,
    );
  }
  for (const idx of coll.indexes.values()) {
    if (!sameKey(idx.spec, spec)) continue;
    if (same({ ...idx.spec, name: spec.name }, spec))
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${idx.name}`);
    throw new CommandError(
      'IndexOptionsConflict',
      `An equivalent index already exists with the same name but different options. Requested index: ${show(spec)}, existing index: ${show(idx.spec)}`,
    );
  }
  return false;
}

export const indexCommands: Record<string, Handler> = {
  createIndexes: (ctx) => {
    const name = collName(ctx);
    if (!Array.isArray(ctx.body.indexes) || ctx.body.indexes.length === 0) {
      throw new CommandError('BadValue', 'Must specify at least one index to create');
    }
    const specs = (ctx.body.indexes as Document[]).map(normaliseSpec);
    const created = !ctx.state.catalog.get(ctx.db, name);
    const coll = ctx.state.catalog.ensure(ctx.db, name);
    const before = coll.indexes.size;
    const todo = specs.filter((s) => !exists(coll, s));
    const done: string[] = [];
    try {
      for (const s of todo) {
        coll.addIndex(s);
        done.push(s.name);
      }
    } catch (e) {
      for (const n of done) coll.dropIndex(n); // all-or-nothing, as one createIndexes command
      throw e;
    }
    const reply: Document = {
      numIndexesBefore: before,
      numIndexesAfter: coll.indexes.size,
      createdCollectionAutomatically: created,
    };
    if (todo.length === 0) reply.note = 'all indexes already exist';
    reply.ok = 1;
    return reply;
  },

  listIndexes: (ctx) => {
    const name = collName(ctx);
    const coll = ctx.state.catalog.get(ctx.db, name);
    if (!coll) throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
    // A collection created with `clusteredIndex` shows that index, by its name, in place of `_id_`.
    const clustered = coll.options.clusteredIndex as Document | undefined;
    const docs = [...coll.indexes.values()].map((i) =>
      encode(clustered && i.spec.name === '_id_' ? { ...clustered, clustered: true } : i.spec),
    );
    const cursor = optDoc(ctx.body.cursor, 'cursor');
    return firstBatchReply(
      ctx,
      `${ctx.db}.$cmd.listIndexes.${name}`,
      docs.values(),
      optInt(cursor?.batchSize, 'cursor.batchSize'),
      false,
    );
  },

  dropIndexes: (ctx) => {
    const name = collName(ctx);
    const coll = ctx.state.catalog.get(ctx.db, name);
    if (!coll) throw new CommandError('NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
    const nIndexesWas = coll.indexes.size;
    const target = ctx.body.index;
    let names: string[];
    if (target === '*') names = [...coll.indexes.keys()].filter((n) => n !== '_id_');
    else if (typeof target === 'string') names = [target];
    else if (Array.isArray(target)) names = target.map(String);
    else if (target && typeof target === 'object') {
      const k = encodeKey(target);
      const idx = [...coll.indexes.values()].find((i) => encodeKey(i.spec.key) === k);
      if (!idx) throw new CommandError('IndexNotFound', `can't find index with key: ${show(target as Document)}`);
      names = [idx.name];
    } else throw new CommandError('TypeMismatch', "BSON field 'dropIndexes.index' is missing but a required field");
    for (const n of names) {
      if (n === '_id_' || n === (coll.options.clusteredIndex as Document | undefined)?.name)
        throw new CommandError('InvalidOptions', 'cannot drop _id index');
      if (!coll.indexes.has(n)) throw new CommandError('IndexNotFound', `index not found with name [${n}]`);
    }
    for (const n of names) coll.dropIndex(n);
    return { nIndexesWas, ok: 1 };
  },
};
