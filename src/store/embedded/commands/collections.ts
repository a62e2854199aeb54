// Collection DDL: create, drop, listCollections.
import type { Document } from 'bson';
import { Query } from 'mingo';
import { mingoOptions } from '../query/options.js';
import { encode } from '../storage/bsonio.js';
import { ID_INDEX } from '../storage/collection.js';
import { encodeKey } from '../storage/keys.js';
import { collName, optDoc, optInt, type Handler } from './context.js';
import { CommandError } from './errors.js';
import { firstBatchReply } from './find.js';
import { viewOptions } from './views.js';

/** Fields every command may carry that are not options of the command itself. */
export const GENERIC_FIELDS = new Set(['$db', 'lsid', '$clusterTime', '$readPreference', 'writeConcern', 'readConcern', 'comment', 'maxTimeMS', 'apiVersion', 'apiStrict', 'apiDeprecationErrors', 'txnNumber', 'autocommit']);

const UNSUPPORTED_OPTIONS = ['capped', 'size', 'max', 'timeseries', 'validator', 'validationLevel', 'validationAction', 'clusteredIndex', 'changeStreamPreAndPostImages', 'encryptedFields', 'collation', 'expireAfterSeconds', 'storageEngine', 'indexOptionDefaults'];

export const collectionCommands: Record<string, Handler> = {
  create: (ctx) => {
    const name = collName(ctx);
    const options: Document = { ...viewOptions(ctx.body) };
    for (const [k, v] of Object.entries(ctx.body)) {
      if (k === 'create' || k === 'viewOn' || k === 'pipeline' || GENERIC_FIELDS.has(k)) continue;
      if (UNSUPPORTED_OPTIONS.includes(k)) throw new CommandError('CommandNotSupported', `create option '${k}' is not supported by the embedded engine`);
      options[k] = v;
    }
    const existing = ctx.state.catalog.get(ctx.db, name);
    if (existing) {
      // MongoDB 7+: creating an existing collection with identical options succeeds.
      if (encodeKey(existing.options) === encodeKey(options)) return { ok: 1 };
      throw new CommandError('NamespaceExists', `namespace ${ctx.db}.${name} already exists, but with different options`);
    }
    ctx.state.catalog.ensure(ctx.db, name, options);
    return { ok: 1 };
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
      if (q && !q.test(full)) continue;
      out.push(encode(nameOnly ? { name: c.name, type: full.type } : full));
    }
    const cursor = optDoc(ctx.body.cursor, 'cursor');
    return firstBatchReply(ctx, `${ctx.db}.$cmd.listCollections`, out.values(), optInt(cursor?.batchSize, 'cursor.batchSize'), false);
  },
};
