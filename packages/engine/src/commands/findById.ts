// Short paths of the find command for lookups by `_id` (what findOne by id and the service's batched reads by
// id send): one get per id, the stored bytes copied into the reply, without the planner, the lazy result chain
// or the cursor registry. Each answers exactly what the general path would, or returns undefined to leave the
// request to it.
import type { Document } from 'bson';
import { DEFAULT_FIRST_BATCH, MAX_BATCH_BYTES } from '../cursors.js';
import type { Collection } from '../storage/collection.js';
import { exactKey, prefixKey } from '../storage/index-keys.js';
import { naturalOrder } from '../storage/order.js';
import type { IdLookup } from '../wire/idLookup.js';
import { CursorReplyWriter, cursorReply, idReply } from '../wire/rawbson.js';
import { optDoc, optInt } from './args.js';
import { type CommandContext, type EngineState } from './context.js';

const isEmpty = (d: Document | undefined): boolean => !d || Object.keys(d).length === 0;

/**
 * `find {_id: <scalar>}` with no sort, projection, skip or collation (what findOne by id sends): at most one
 * document, answered from one `_id_` index get and one document get, the stored bytes copied straight into
 * the reply, without the planner, the lazy result chain or the cursor registry. The same answer the general
 * path gives (an exact plan on the `_id_` index); undefined when the request is anything else.
 */
export function findById(ctx: CommandContext, coll: Collection, ns: string, skip: number): Buffer | undefined {
  const b = ctx.body;
  const filter = optDoc(b.filter, 'filter');
  if (!filter || skip !== 0 || !isEmpty(optDoc(b.sort, 'sort')) || !isEmpty(optDoc(b.projection, 'projection')))
    return undefined;
  if (b.collation !== undefined && b.collation !== null) return undefined;
  const batchSize = optInt(b.batchSize, 'batchSize');
  if (batchSize !== undefined && batchSize <= 0) return undefined;
  let id: unknown;
  let fields = 0;
  for (const k in filter) {
    if (k !== '_id' || ++fields > 1) return undefined;
    id = filter[k];
  }
  if (fields !== 1 || !exactKey(id) || coll.idIndex.spec.collation) return undefined;
  const doc = coll.peekById(id);
  return cursorReply(ns, 0n, 'firstBatch', doc ? [doc] : []);
}

/**
 * The same find by `_id` recognised in the request's bytes (wire/idLookup.ts: no projection, sort, skip,
 * collation or hint there), answered as findById answers it: the whole reply message with its frame space
 * in front (rawbson.ts finishMessage), or undefined for a view, a missing collection or a collated `_id_`
 * index, which the general path answers.
 */
export function findByIdLookup(state: EngineState, lookup: IdLookup): Buffer | undefined {
  const coll = state.catalog.get(lookup.db, lookup.collection);
  if (!coll || typeof coll.options.viewOn === 'string' || coll.idIndex.spec.collation) return undefined;
  return idReply(nsBytes(coll), coll.peekById(lookup.id));
}

/** Each collection's namespace as BSON string bytes, made once per collection rather than per request. */
const namespaces = new WeakMap<Collection, Buffer>();
function nsBytes(coll: Collection): Buffer {
  let ns = namespaces.get(coll);
  if (!ns) namespaces.set(coll, (ns = Buffer.from(`${coll.ns}\0`, 'utf8')));
  return ns;
}

/**
 * `find {_id: {$in: [<scalars>]}}` on a clustered collection (documents keyed by `_id`, storage/collection.ts)
 * with no sort, projection, skip, limit, hint or collation and an answer that fits the first batch (at most 101
 * ids and no batch size below their number; what the service's batched reads by id send): the ids' keys in
 * natural order, one get each, each document's stored bytes copied straight into the reply, without
 * the planner, the lazy result chain or the cursor registry. The same answer the general path gives (an exact
 * plan on `_id_`: distinct keys in natural order, missing ids skipped); undefined when the request is anything
 * else or the batch would pass the reply's byte limit.
 */
export function findByIds(
  ctx: CommandContext,
  coll: Collection,
  ns: string,
  skip: number,
  limit: number,
): Buffer | undefined {
  const b = ctx.body;
  const filter = optDoc(b.filter, 'filter');
  if (!filter || skip !== 0 || limit !== 0 || !coll.meta.clustered || b.hint !== undefined) return undefined;
  if (!isEmpty(optDoc(b.sort, 'sort')) || !isEmpty(optDoc(b.projection, 'projection'))) return undefined;
  if (b.collation !== undefined && b.collation !== null) return undefined;
  let cond: unknown;
  let fields = 0;
  for (const k in filter) {
    if (k !== '_id' || ++fields > 1) return undefined;
    cond = filter[k];
  }
  if (
    fields !== 1 ||
    cond === null ||
    typeof cond !== 'object' ||
    Array.isArray(cond) ||
    (cond as { _bsontype?: string })._bsontype
  )
    return undefined;
  let ops = 0;
  for (const k in cond as Document) if (k !== '$in' || ++ops > 1) return undefined;
  const ids = (cond as Document).$in as unknown;
  if (ops !== 1 || !Array.isArray(ids) || ids.length > DEFAULT_FIRST_BATCH) return undefined;
  const batchSize = optInt(b.batchSize, 'batchSize');
  if (batchSize !== undefined && batchSize < ids.length) return undefined;
  const keys = new Set<string>();
  for (const id of ids) {
    if (!exactKey(id)) return undefined;
    keys.add(prefixKey([id]));
  }
  const sorted = [...keys].sort(naturalOrder);
  // Each document is copied from lmdb's read buffer (reused by the next get) straight into the reply.
  const writer = new CursorReplyWriter(ns, 'firstBatch');
  for (const rid of sorted) {
    const doc = coll.peek(rid);
    if (!doc) continue;
    writer.add(doc);
    if (writer.batchBytes > MAX_BATCH_BYTES) {
      writer.discard();
      return undefined;
    }
  }
  return writer.finish(0n);
}
