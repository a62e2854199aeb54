// Read commands returning cursors: find, getMore, killCursors. Replies are hand-built around the raw
// stored documents (see wire/rawbson.ts).
import { Long, deserialize, type Document } from 'bson';
import { checkHint, findRaw, hintedIndex } from '../query/exec.js';
import { planQuery } from '../query/plan.js';
import { parseSort } from '../query/sort.js';
import type { Collection } from '../storage/collection.js';
import type { Index } from '../storage/indexes.js';
import { checkProjection } from '../query/fields.js';
import { cursorReply } from '../wire/rawbson.js';
import { collName, letVariables, type CommandContext, type Handler } from './context.js';
import { optDoc, optInt, toBigInt } from './args.js';
import { CommandError } from '../errors.js';
import { encoded, firstBatchReply } from './batches.js';
import { pipelineDocuments } from './aggregate.js';
import { viewOf } from './views.js';
import { findById, findByIds } from './findById.js';
import { encode } from '../storage/bsonio.js';

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
  const docs = pipelineDocuments(ctx, name, stages, {
    collation: optDoc(b.collation, 'collation'),
    variables: letVariables(ctx),
  });
  return firstBatchReply(ctx, `${ctx.db}.${name}`, encoded(docs), optInt(b.batchSize, 'batchSize'), singleBatch);
}

/** The value an index keys for one field of a document: the first element where the path meets an array. */
function keyValue(doc: Document, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(cur)) cur = cur[0];
    if (!cur || typeof cur !== 'object') return null;
    cur = (cur as Document)[part];
  }
  if (Array.isArray(cur)) return cur.length ? cur[0] : undefined;
  return cur === undefined ? null : cur;
}

/**
 * find with `returnKey: true`: each result is the key of the index the query used (the hinted one, if any;
 * {} when it scanned the collection), as in MongoDB, where the projection is then ignored and `showRecordId`
 * adds nothing. Where a path crosses an array (a multikey index) the key shown is the first element's, not the
 * one the walk met; and which index answers a query without a hint is this engine's planner's choice.
 */
function returnKeyReply(
  ctx: CommandContext,
  coll: Collection | undefined,
  ns: string,
  skip: number,
  limit: number,
  singleBatch: boolean,
): Buffer {
  const b = ctx.body;
  const filter = optDoc(b.filter, 'filter') ?? {};
  const sort = optDoc(b.sort, 'sort');
  const extras = { collation: optDoc(b.collation, 'collation'), variables: letVariables(ctx) };
  let index: Index | undefined;
  if (coll && b.hint !== undefined) index = hintedIndex(coll, b.hint);
  else if (coll) {
    const plan = planQuery(coll, filter, extras.collation, sort ? parseSort(sort) : undefined);
    index = plan.walk?.index ?? (plan.index !== undefined ? coll.indexes.get(plan.index) : undefined);
  }
  function* keys(): Generator<Buffer> {
    for (const bytes of findRaw(coll, { filter, sort, skip, limit, extras })) {
      const key: Document = {};
      if (index) {
        const doc = deserialize(bytes, { promoteValues: false }); // keys keep their stored number types
        for (const f of index.fields) key[f] = keyValue(doc, f);
      }
      yield encode(key);
    }
  }
  return firstBatchReply(ctx, ns, keys(), optInt(b.batchSize, 'batchSize'), singleBatch);
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
    if (b.returnKey === true) return returnKeyReply(ctx, coll, `${ctx.db}.${name}`, skip, limit, singleBatch);
    const byId =
      coll &&
      (findById(ctx, coll, `${ctx.db}.${name}`, skip) ?? findByIds(ctx, coll, `${ctx.db}.${name}`, skip, limit));
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
    if (!Array.isArray(ids))
      throw new CommandError('FailedToParse', "BSON field 'killCursors.cursors' is missing but a required field");
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const raw of ids) {
      const id = toBigInt(raw);
      (ctx.state.cursors.kill(id) ? killed : notFound).push(Long.fromBigInt(id));
    }
    const reply: Document = {
      cursorsKilled: killed,
      cursorsNotFound: notFound,
      cursorsAlive: [],
      cursorsUnknown: [],
      ok: 1,
    };
    return reply;
  },
};
