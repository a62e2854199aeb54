// Index DDL: createIndexes (idempotent for identical specs, 85/86 on conflicts), listIndexes, dropIndexes.
import type { Document } from 'bson';
import { encode } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import type { IndexSpec } from '../storage/index-keys.js';
import { encodeKey } from '../storage/keys.js';
import { collationId, normalizeCollation } from '../collation/index.js';
import { collName, type CommandContext, type Handler } from './context.js';
import { optDoc, optInt } from './args.js';
import { CommandError } from '../errors.js';
import { findLanguage } from '../text/analysis.js';
import { firstBatchReply } from './batches.js';
import { buildsInBackground, startBuild, waitFor } from './index-builds.js';

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
  'weights',
  'default_language',
  'language_override',
  'textIndexVersion',
]);

/** MongoDB's largest weight of a text index field (weights are integers in 1..99,999). */
const MAX_WORD_WEIGHT = 100_000;

/**
 * A text index's key and options as MongoDB stores them: the 'text' fields become `_fts: 'text', _ftsx: 1`
 * between the fields before and after them (which must be adjacent), each text field gets a weight (1 unless
 * `weights` says otherwise; fields named only in `weights` are indexed too), and the language settings their
 * defaults. A key already in that form (a spec read back from listIndexes) is taken with its weights.
 */
function textIndexSpec(raw: Document, key: Document): IndexSpec {
  const out: Document = {};
  const weights: Record<string, number> = {};
  let seen = false;
  let after = false;
  for (const [field, dir] of Object.entries(key)) {
    if (field === '_fts' || field === '_ftsx') {
      if (field === '_fts' && dir !== 'text') throw new CommandError('CannotCreateIndex', 'expecting _fts:"text"');
      out[field] = dir;
      seen = true;
      continue;
    }
    if (dir === 'text') {
      if (after) throw new CommandError('CannotCreateIndex', "'text' fields in index must all be adjacent");
      if (!seen) Object.assign(out, { _fts: 'text', _ftsx: 1 });
      seen = true;
      weights[field] = 1;
      continue;
    }
    if (dir !== 1 && dir !== -1)
      throw new CommandError('CannotCreateIndex', 'expected value 1 or -1 for non-text key in compound index');
    if (seen) after = true;
    out[field] = dir;
  }
  const given = raw.weights;
  if (given !== undefined) {
    if (given === '$**') weights['$**'] = 1;
    else if (given === null || typeof given !== 'object' || Array.isArray(given))
      throw new CommandError('CannotCreateIndex', "text index option 'weights' must be an object");
    else
      for (const [field, w] of Object.entries(given as Document)) {
        if (typeof w !== 'number')
          throw new CommandError('CannotCreateIndex', 'weight for text index needs numeric type');
        const n = Math.trunc(w);
        if (!(n > 0 && n < MAX_WORD_WEIGHT))
          throw new CommandError(
            'CannotCreateIndex',
            `text index weight must be in the exclusive interval (0,${MAX_WORD_WEIGHT}) but found: ${w}`,
          );
        weights[field] = n;
      }
  }
  if (Object.keys(weights).length === 0)
    throw new CommandError('CannotCreateIndex', 'text index needs at least one weighted field');
  const defaultLanguage = raw.default_language ?? 'english';
  if (!findLanguage(defaultLanguage))
    throw new CommandError(
      'CannotCreateIndex',
      `default_language: unsupported language: "${String(defaultLanguage)}" for text index version 3`,
    );
  const override = raw.language_override ?? 'language';
  if (typeof override !== 'string' || !override || override.startsWith('$') || override.includes('.'))
    throw new CommandError('CannotCreateIndex', `language_override is invalid: ${String(override)}`);
  if (raw.textIndexVersion !== undefined && raw.textIndexVersion !== 3)
    throw new CommandError(
      'CannotCreateIndex',
      `currently only textIndexVersion 3 is supported, not ${String(raw.textIndexVersion)}`,
    );
  const sorted = Object.fromEntries(Object.entries(weights).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    v: 2,
    key: out,
    name: raw.name as string,
    weights: sorted,
    default_language: defaultLanguage as string,
    language_override: override,
    textIndexVersion: 3,
  };
}

const isText = (key: Document): boolean => Object.entries(key).some(([f, d]) => d === 'text' || f === '_fts');

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
  if (isText(key)) {
    const spec = textIndexSpec(raw, key);
    if (raw.sparse === true) spec.sparse = true;
    if (raw.partialFilterExpression !== undefined)
      spec.partialFilterExpression = optDoc(raw.partialFilterExpression, 'partialFilterExpression');
    if (raw.collation !== undefined)
      throw new CommandError('CannotCreateIndex', "Index type 'text' does not support collation");
    if (raw.unique === true)
      throw new CommandError('CannotCreateIndex', "Index type 'text' does not support the unique option");
    return spec;
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
  encodeKey(a.key) === encodeKey(b.key) &&
  collationId(a.collation) === collationId(b.collation) &&
  // Text indexes share their key pattern: what they index is in their weights and languages.
  encodeKey([a.weights, a.default_language, a.language_override]) ===
    encodeKey([b.weights, b.default_language, b.language_override]);
const same = (a: IndexSpec, b: IndexSpec): boolean => encodeKey(a) === encodeKey(b);

/** Returns true if `spec` already exists identically (built, or being built); throws on MongoDB's conflict cases. */
function exists(coll: Collection, spec: IndexSpec): boolean {
  const byName = coll.indexes.get(spec.name) ?? coll.builds.get(spec.name);
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
  for (const idx of [...coll.indexes.values(), ...coll.builds.all()]) {
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

/**
 * Whether a createIndexes command changes nothing: its collection holds every index it names, built and with the
 * same specification. A service asks for its indexes at every start; such a command is answered without a write
 * transaction, so it neither waits for a commit nor holds other commands behind it (on a cold disk each commit
 * takes a few hundred milliseconds). Anything else, errors included, takes the command's general path.
 */
export function createsNothing(ctx: CommandContext): boolean {
  try {
    const coll = ctx.state.catalog.get(ctx.db, collName(ctx));
    const raws: unknown = ctx.body.indexes;
    if (!coll || !Array.isArray(raws) || raws.length === 0) return false;
    return raws.every((raw: Document) => {
      const spec = normaliseSpec(raw);
      const index = coll.indexes.get(spec.name);
      return index !== undefined && same(index.spec, spec);
    });
  } catch {
    return false;
  }
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
    // One text index per collection, as MongoDB allows.
    let text = [...coll.indexes.values(), ...coll.builds.all()].find((i) => i.text)?.name;
    for (const s of todo) {
      if (s.key._fts !== 'text') continue;
      if (text !== undefined)
        throw new CommandError(
          'CannotCreateIndex',
          `only one text index per collection allowed, found existing text index "${text}"`,
        );
      text = s.name;
    }
    const reply: Document = {
      numIndexesBefore: before,
      numIndexesAfter: before + todo.length,
      createdCollectionAutomatically: created,
    };
    // An identical index being built: the command answers when that build ends.
    for (const s of specs) {
      const building = coll.builds.get(s.name);
      if (building && !todo.includes(s)) waitFor(ctx.state, reply, building.id);
    }
    const done: string[] = [];
    try {
      for (const s of todo) {
        if (buildsInBackground(coll, s)) startBuild(ctx.state, coll, s, reply);
        else coll.addIndex(s);
        done.push(s.name);
      }
    } catch (e) {
      for (const n of done) coll.dropIndex(n); // all-or-nothing, as one createIndexes command
      throw e;
    }
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
      if (!coll.indexes.has(n) && !coll.builds.get(n))
        throw new CommandError('IndexNotFound', `index not found with name [${n}]`);
    }
    for (const n of names) coll.dropIndex(n);
    return { nIndexesWas, ok: 1 };
  },
};
