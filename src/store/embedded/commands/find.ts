// Read commands returning cursors: find, getMore, killCursors. Replies are hand-built around the raw
// stored documents (see wire/rawbson.ts).
import { Long } from 'bson';
import type { Document } from 'bson';
import { checkHint, findRaw } from '../query/exec.js';
import { checkProjection } from '../query/fields.js';
import { cursorReply } from '../wire/rawbson.js';
import { collName, letVariables, optDoc, optInt, type CommandContext, type Handler } from './context.js';
import { CommandError } from './errors.js';
import { pipelineDocuments } from './aggregate.js';
import { viewOf } from './views.js';
import { encode } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import { exactKey, prefixKey } from '../storage/indexes.js';
import { naturalOrder } from '../storage/order.js';
import { DEFAULT_FIRST_BATCH, MAX_BATCH_BYTES } from '../cursors.js';
import { batchEntryBytes } from '../wire/rawbson.js';

export function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Long') return (v as Long).toBigInt();
  throw new CommandError('TypeMismatch', `cursor id must be a long, got ${typeof v}`);
}

/** Runs a lazy result source as a cursor and returns the first-batch reply. */
export function firstBatchReply(
  ctx: CommandContext,
  ns: string,
  source: Iterator<Buffer>,
  batchSize: number | undefined,
  singleBatch: boolean,
): Buffer {
  if (batchSize !== undefined && batchSize < 0) throw new CommandError('BadValue', 'BatchSize value must be non-negative');
  const batch = ctx.state.cursors.first(ns, source, batchSize, singleBatch);
  return cursorReply(ns, batch.id, 'firstBatch', batch.docs);
}

/** find on a view: the view's pipeline, then the find's filter, sort, window and projection as stages. */
function findOnView(ctx: CommandContext, name: string, skip: number, limit: number, singleBatch: boolean): Buffer {
  const b = ctx.body;
  const stages: Document[] = [{ $match: optDoc(b.filter, 'filter') ?? {} }];
  const sort = optDoc(b.sort, 'sort');
  if (sort && Object.keys(sort).length) stages.push({ $sort: sort });
  if (skip) stages.push({ $skip: skip });
  if (limit) stages.push({ $limit: limit });
  const projection = optDoc(b.projection, 'projection');
  if (projection && Object.keys(projection).length) stages.push({ $project: projection });
  const docs = pipelineDocuments(ctx, name, stages, { collation: optDoc(b.collation, 'collation'), variables: letVariables(ctx) });
  function* encoded(): Generator<Buffer> {
    for (const d of docs) yield encode(d);
  }
  return firstBatchReply(ctx, `${ctx.db}.${name}`, encoded(), optInt(b.batchSize, 'batchSize'), singleBatch);
}

const isEmpty = (d: Document | undefined): boolean => !d || Object.keys(d).length === 0;

/**
 * `find {_id: <scalar>}` with no sort, projection, skip or collation (what findOne by id sends): at most one
 * document, answered from one `_id_` index get and one document get, the stored bytes copied straight into
 * the reply, without the planner, the lazy result chain or the cursor registry. The same answer the general
 * path gives (an exact plan on the `_id_` index); undefined when the request is anything else.
 */
function findById(ctx: CommandContext, coll: Collection, ns: string, skip: number): Buffer | undefined {
  const b = ctx.body;
  const filter = optDoc(b.filter, 'filter');
  if (!filter || skip !== 0 || !isEmpty(optDoc(b.sort, 'sort')) || !isEmpty(optDoc(b.projection, 'projection'))) return undefined;
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

/** Scratch space for the documents of one `_id` list reply (they are copied into the reply at once). */
let scratch = Buffer.allocUnsafeSlow(1 << 20);

/**
 * `find {_id: {$in: [<scalars>]}}` on a clustered collection (documents keyed by `_id`, storage/collection.ts)
 * with no sort, projection, skip, limit, hint or collation and an answer that fits the first batch (at most 101
 * ids and no batch size below their number; what the service's batched reads by id send): the ids' keys in
 * natural order, one get each, the stored bytes gathered in a reused buffer and copied into the reply, without
 * the planner, the lazy result chain or the cursor registry. The same answer the general path gives (an exact
 * plan on `_id_`: distinct keys in natural order, missing ids skipped); undefined when the request is anything
 * else or the batch would pass the reply's byte limit.
 */
function findByIds(ctx: CommandContext, coll: Collection, ns: string, skip: number, limit: number): Buffer | undefined {
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
  if (fields !== 1 || cond === null || typeof cond !== 'object' || Array.isArray(cond) || (cond as { _bsontype?: string })._bsontype) return undefined;
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
  const at: number[] = [];
  let used = 0;
  let bytes = 0;
  for (const rid of sorted) {
    const doc = coll.peek(rid);
    if (!doc) continue;
    bytes += batchEntryBytes(at.length / 2, doc);
    if (bytes > MAX_BATCH_BYTES) return undefined;
    if (used + doc.length > scratch.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, used + doc.length));
      scratch.copy(bigger, 0, 0, used);
      scratch = bigger;
    }
    doc.copy(scratch, used);
    at.push(used, doc.length);
    used += doc.length;
  }
  const docs: Buffer[] = [];
  for (let i = 0; i < at.length; i += 2) docs.push(scratch.subarray(at[i]!, at[i]! + at[i + 1]!));
  return cursorReply(ns, 0n, 'firstBatch', docs);
}

export const findCommands: Record<string, Handler> = {
  find: (ctx) => {
    const b = ctx.body;
    const name = collName(ctx);
    let limit = optInt(b.limit, 'limit') ?? 0;
    let singleBatch = b.singleBatch === true;
    if (limit < 0) {
      limit = -limit;
      singleBatch = true;
    }
    const skip = optInt(b.skip, 'skip') ?? 0;
    if (skip < 0) throw new CommandError('BadValue', 'skip value must be non-negative');
    if (viewOf(ctx, name)) return findOnView(ctx, name, skip, limit, singleBatch);
    const coll = ctx.state.catalog.get(ctx.db, name);
    checkHint(coll, b.hint);
    checkProjection(optDoc(b.projection, 'projection'));
    const byId = coll && (findById(ctx, coll, `${ctx.db}.${name}`, skip) ?? findByIds(ctx, coll, `${ctx.db}.${name}`, skip, limit));
    if (byId) return byId;
    const source = findRaw(coll, {
      filter: optDoc(b.filter, 'filter'),
      sort: optDoc(b.sort, 'sort'),
      projection: optDoc(b.projection, 'projection'),
      skip,
      limit,
      extras: { collation: optDoc(b.collation, 'collation'), variables: letVariables(ctx) },
    });
    return firstBatchReply(ctx, `${ctx.db}.${name}`, source, optInt(b.batchSize, 'batchSize'), singleBatch);
  },

  getMore: (ctx) => {
    const id = toBigInt(ctx.body.getMore);
    const cur = ctx.state.cursors.get(id);
    if (!cur) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    const batch = ctx.state.cursors.next(cur, optInt(ctx.body.batchSize, 'batchSize'));
    return cursorReply(cur.ns, batch.id, 'nextBatch', batch.docs);
  },

  killCursors: (ctx) => {
    const ids = ctx.body.cursors;
    if (!Array.isArray(ids)) throw new CommandError('FailedToParse', "BSON field 'killCursors.cursors' is missing but a required field");
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const raw of ids) {
      const id = toBigInt(raw);
      (ctx.state.cursors.kill(id) ? killed : notFound).push(Long.fromBigInt(id));
    }
    const reply: Document = { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
    return reply;
  },
};
