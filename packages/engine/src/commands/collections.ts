// Collection DDL: create, drop, listCollections.
import type { Document } from 'bson';
import { Query } from '../query/mingo.js';
import { mingoOptions } from '../query/options.js';
import { encode } from '../storage/bsonio.js';
import { ID_INDEX } from '../storage/collection.js';
import { encodeKey } from '../storage/keys.js';
import { collName, type Handler } from './context.js';
import { optDoc, optInt } from './args.js';
import { CommandError } from '../errors.js';
import { firstBatchReply } from './batches.js';
import { viewOptions } from './views.js';
import { cappedOptions } from './capped.js';
import { validationOptions } from './validation.js';
import type { Collection } from '../storage/collection.js';

/** Fields every command may carry that are not options of the command itself. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  '$readPreference',
  'writeConcern',
  'readConcern',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'txnNumber',
  'autocommit',
]);

const UNSUPPORTED_OPTIONS = [
  'timeseries',
  'encryptedFields',
  'collation',
  'expireAfterSeconds',
  'storageEngine',
  'indexOptionDefaults',
];
/** create options checked and stored by their own modules (views, validation, capped). */
const CHECKED_OPTIONS = new Set([
  'create',
  'viewOn',
  'pipeline',
  'validator',
  'validationLevel',
  'validationAction',
  'capped',
  'size',
  'max',
  'clusteredIndex',
]);

/**
 * create's `clusteredIndex`: every collection of this engine but a capped one already keeps its documents in
 * `_id` order under their `_id` (storage/collection.ts), which is what MongoDB's clustered collections do, so
 * the option is checked and recorded (listCollections, listIndexes show it), and changes no storage.
 */
function clusteredOptions(body: Document): Document {
  const raw: unknown = body.clusteredIndex;
  if (raw === undefined) return {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new CommandError(
      'TypeMismatch',
      "BSON field 'create.clusteredIndex' is the wrong type, expected type 'object'",
    );
  const spec = raw as Document;
  for (const k of Object.keys(spec)) {
    if (!['key', 'unique', 'name', 'v'].includes(k))
      throw new CommandError('FailedToParse', `BSON field 'clusteredIndex.${k}' is an unknown field.`);
  }
  const key = spec.key as unknown;
  if (!key || typeof key !== 'object' || Object.keys(key).length !== 1 || (key as Document)._id !== 1)
    throw new CommandError('InvalidOptions', 'The clusteredIndex option is only supported for key: {_id: 1}');
  if (spec.unique !== true) throw new CommandError('InvalidOptions', 'The clusteredIndex option requires unique: true');
  if (spec.name !== undefined && (typeof spec.name !== 'string' || !spec.name))
    throw new CommandError('TypeMismatch', "BSON field 'clusteredIndex.name' must be a non-empty string");
  if (spec.v !== undefined && spec.v !== 2)
    throw new CommandError('InvalidOptions', 'Invalid clusteredIndex v number: only v: 2 is supported');
  if (body.capped === true)
    throw new CommandError('InvalidOptions', 'Cannot create a clustered collection that is capped');
  return { clusteredIndex: { v: 2, key: { _id: 1 }, name: spec.name ?? '_id_', unique: true } };
}

export const collectionCommands: Record<string, Handler> = {
  create: (ctx) => {
    const name = collName(ctx);
    const options: Document = {
      ...viewOptions(ctx.body),
      ...cappedOptions(ctx.body),
      ...validationOptions(ctx.body),
      ...clusteredOptions(ctx.body),
    };
    for (const [k, v] of Object.entries(ctx.body)) {
      if (CHECKED_OPTIONS.has(k) || GENERIC_FIELDS.has(k)) continue;
      if (UNSUPPORTED_OPTIONS.includes(k))
        throw new CommandError('CommandNotSupported', `create option '${k}' is not supported by the embedded engine`);
      options[k] = v;
    }
    const existing = ctx.state.catalog.get(ctx.db, name);
    if (existing) {
      // MongoDB 7+: creating an existing collection with identical options succeeds.
      if (encodeKey(existing.options) === encodeKey(options)) return { ok: 1 };
      throw new CommandError(
        'NamespaceExists',
        `namespace ${ctx.db}.${name} already exists, but with different options`,
      );
    }
    ctx.state.catalog.ensure(ctx.db, name, options);
    return { ok: 1 };
  },

  collMod: (ctx) => {
    const name = collName(ctx);
    const coll = ctx.state.catalog.get(ctx.db, name);
    if (!coll) throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
    const view = typeof coll.options.viewOn === 'string';
    // As MongoDB, the whole command is checked before anything is changed: an error answer leaves no change.
    const dryRun: unknown = ctx.body.dryRun;
    if (dryRun !== undefined && typeof dryRun !== 'boolean')
      throw new CommandError('TypeMismatch', "BSON field 'collMod.dryRun' is the wrong type, expected type 'bool'");
    if (dryRun === true && (ctx.body.index as Document | undefined)?.unique !== true)
      throw new CommandError('InvalidOptions', "collMod dryRun mode is only supported with 'index.unique: true'");
    const options: Document = { ...coll.options };
    let index: Document | undefined;
    for (const [k, v] of Object.entries(ctx.body)) {
      if (k === 'collMod' || k === 'dryRun' || GENERIC_FIELDS.has(k)) continue;
      if (k === 'validator' || k === 'validationLevel' || k === 'validationAction') {
        if (view) throw new CommandError('InvalidOptions', `option not supported on a view: ${k}`);
        Object.assign(options, validationOptions({ [k]: v }));
      } else if (k === 'viewOn' || k === 'pipeline') {
        if (!view) throw new CommandError('InvalidOptions', `option only supported on a view: ${k}`);
        Object.assign(
          options,
          viewOptions({ viewOn: ctx.body.viewOn ?? options.viewOn, pipeline: ctx.body.pipeline ?? options.pipeline }),
        );
      } else if (k === 'changeStreamPreAndPostImages') {
        // Pre- and post-images are always available to change streams here; the option is kept as set.
        if (!optDoc(v, k) || typeof (v as Document).enabled !== 'boolean')
          throw new CommandError(
            'TypeMismatch',
            "BSON field 'changeStreamPreAndPostImages.enabled' is missing but a required field",
          );
        options.changeStreamPreAndPostImages = { enabled: (v as Document).enabled };
      } else if (k === 'index') index = optDoc(v, 'index');
      else if (k === 'expireAfterSeconds' || k === 'timeseries' || k === 'clusteredIndex')
        throw new CommandError('CommandNotSupported', `collMod option '${k}' is not supported by the embedded engine`);
      else throw new CommandError('Location40415', `BSON field 'collMod.${k}' is an unknown field.`);
    }
    // The index change checks itself whole before it changes anything, and is the last step that can fail.
    const reply = index ? modifyIndex(coll, index, dryRun === true) : {};
    // A dry run changes nothing, so it is no change for change streams either.
    if (dryRun === true) return { ...reply, ok: 1 };
    coll.meta.options = options;
    ctx.state.catalog.touched(coll);
    // A 'modify' event for change streams with showExpandedEvents; its description holds what was set.
    const changes = Object.fromEntries(
      Object.entries(ctx.body).filter(([k]) => k !== 'collMod' && !GENERIC_FIELDS.has(k)),
    );
    ctx.state.catalog.oplog.record({ op: 'c', ns: `${ctx.db}.$cmd`, o: { collMod: name, changes } });
    return { ...reply, ok: 1 };
  },

  drop: (ctx) => {
    const name = collName(ctx);
    const coll = ctx.state.catalog.get(ctx.db, name);
    if (!coll) return { ok: 1 }; // MongoDB 7+ no longer fails on a missing namespace
    const nIndexesWas = coll.indexes.size;
    ctx.state.catalog.drop(ctx.db, name);
    return { nIndexesWas, ns: coll.ns, ok: 1 };
  },

  listCollections: (ctx) => {
    const nameOnly = ctx.body.nameOnly === true;
    const filter = optDoc(ctx.body.filter, 'filter') ?? {};
    const q = Object.keys(filter).length ? new Query(filter, mingoOptions()) : undefined;
    const out: Buffer[] = [];
    for (const c of ctx.state.catalog.collections(ctx.db)) {
      const view = typeof c.options.viewOn === 'string';
      const full: Document = {
        name: c.name,
        type: view ? 'view' : 'collection',
        options: c.options,
        info: { readOnly: false, uuid: c.uuid },
        idIndex: { v: ID_INDEX.v, key: ID_INDEX.key, name: ID_INDEX.name },
      };
      // A clustered collection has no separate _id index to show.
      if (c.options.clusteredIndex) delete full.idIndex;
      if (q && !q.test(full)) continue;
      out.push(encode(nameOnly ? { name: c.name, type: full.type } : full));
    }
    const cursor = optDoc(ctx.body.cursor, 'cursor');
    return firstBatchReply(
      ctx,
      `${ctx.db}.$cmd.listCollections`,
      out.values(),
      optInt(cursor?.batchSize, 'cursor.batchSize'),
      false,
    );
  },
};

/**
 * collMod's `index` option (the index named by `name` or `keyPattern`): `expireAfterSeconds` of a TTL index;
 * `prepareUnique` (a non-unique index then refuses new duplicate keys, the ones there stay; a no-op on a unique
 * index); `unique: true` turns a prepared index unique, or fails with CannotConvertIndexToUnique listing the
 * `_id`s sharing each duplicated key (with `dryRun`, only that check).
 */
function modifyIndex(coll: Collection, spec: Document, dryRun: boolean): Document {
  const idx =
    typeof spec.name === 'string'
      ? coll.indexes.get(spec.name)
      : [...coll.indexes.values()].find((i) => encodeKey(i.spec.key) === encodeKey(spec.keyPattern));
  if (!idx)
    throw new CommandError(
      'IndexNotFound',
      `cannot find index ${JSON.stringify(spec.name ?? spec.keyPattern)} for ns ${coll.ns}`,
    );
  const out: Document = {};
  // Every option is checked (and the unique conversion's duplicates looked for) before any is applied.
  const apply: Array<() => void> = [];
  for (const k of Object.keys(spec)) {
    if (k === 'name' || k === 'keyPattern') continue;
    if (k === 'expireAfterSeconds') {
      const s = Number(spec.expireAfterSeconds);
      if (!Number.isFinite(s) || s < 0)
        throw new CommandError('BadValue', "TTL index 'expireAfterSeconds' option must be within an acceptable range");
      if (!idx.ttl) throw new CommandError('InvalidOptions', 'no expireAfterSeconds field to update');
      out.expireAfterSeconds_old = idx.spec.expireAfterSeconds;
      out.expireAfterSeconds_new = Math.trunc(s);
      apply.push(() => {
        idx.spec.expireAfterSeconds = Math.trunc(s);
      });
    } else if (k === 'prepareUnique') {
      if (typeof spec.prepareUnique !== 'boolean')
        throw new CommandError(
          'TypeMismatch',
          "BSON field 'collMod.index.prepareUnique' is the wrong type, expected type 'bool'",
        );
      if (idx.unique || idx.clustered) continue; // already refuses duplicates
      const was = idx.spec.prepareUnique === true;
      if (was === spec.prepareUnique) continue;
      out.prepareUnique_old = was;
      out.prepareUnique_new = spec.prepareUnique;
      const prepared = spec.prepareUnique;
      apply.push(() => {
        const { prepareUnique: _, ...rest } = idx.spec;
        idx.meta.spec = prepared ? { ...rest, prepareUnique: true } : rest;
      });
    } else if (k === 'unique') {
      if (typeof spec.unique !== 'boolean')
        throw new CommandError(
          'TypeMismatch',
          "BSON field 'collMod.index.unique' is the wrong type, expected type 'bool'",
        );
      // MongoDB 6.0's answers; 7.1 turns a unique index non-unique with `forceNonUnique`, not built here.
      if (!spec.unique) throw new CommandError('BadValue', 'Cannot make index non-unique');
      if (idx.unique || idx.clustered) continue;
      if (idx.spec.prepareUnique !== true && spec.prepareUnique !== true)
        throw new CommandError(
          'InvalidOptions',
          "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first.",
        );
      const violations = coll.uniqueViolations(idx);
      if (violations.length > 0)
        throw new CommandError(
          'CannotConvertIndexToUnique',
          'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.',
          { violations },
        );
      if (dryRun) continue;
      out.unique_new = true;
      // Last, after the other options of this index: unique in the place createIndexes gives it, so an
      // identical createIndexes later finds the index the same.
      apply.push(() => {
        const { v, key, name, prepareUnique: _, ...rest } = idx.spec;
        coll.makeUnique(idx, { v, key, name, unique: true, ...rest });
      });
    } else
      throw new CommandError(
        'CommandNotSupported',
        `collMod index option '${k}' is not supported by the embedded engine`,
      );
  }
  if (!dryRun) for (const step of apply) step();
  return out;
}
