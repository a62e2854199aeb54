// aggregate (cursor form). A leading $match is served through the planner (indexes); the rest of the
// pipeline runs in mingo, lazily where stages allow. $lookup/$graphLookup/$unionWith resolve other
// collections of the same database.
import type { Document } from 'bson';
import { Aggregator } from 'mingo';
import type { AnyObject } from 'mingo/types';
import { matches } from '../query/exec.js';
import { mingoOptions, type QueryExtras } from '../query/options.js';
import { decode, encode } from '../storage/bsonio.js';
import { optDoc, optInt, type CommandContext, type Handler } from './context.js';
import { CommandError } from './errors.js';
import { firstBatchReply } from './find.js';

const UNSUPPORTED = new Set(['$out', '$merge', '$changeStream', '$currentOp', '$listSessions', '$indexStats', '$collStats', '$search', '$geoNear']);

function resolver(ctx: CommandContext): (name: string) => AnyObject[] {
  const cache = new Map<string, AnyObject[]>();
  return (name) => {
    let docs = cache.get(name);
    if (!docs) {
      const coll = ctx.state.catalog.get(ctx.db, name);
      docs = coll ? [...coll.docs.values()].map((b) => decode(b) as AnyObject) : [];
      cache.set(name, docs);
    }
    return docs;
  };
}

function* run(ctx: CommandContext, name: string, pipeline: Document[], extras: QueryExtras): Generator<Buffer> {
  const coll = ctx.state.catalog.get(ctx.db, name);
  let stages = pipeline;
  let filter: Document = {};
  if (stages[0] && '$match' in stages[0] && !JSON.stringify(stages[0].$match ?? {}).includes('"$expr"')) {
    filter = stages[0].$match as Document;
    stages = stages.slice(1);
  }
  function* source(): Generator<Document> {
    if (coll) for (const m of matches(coll, filter, extras)) yield m.doc;
  }
  if (stages.length === 0) {
    for (const d of source()) yield encode(d);
    return;
  }
  const it = new Aggregator(stages as AnyObject[], mingoOptions(extras)).stream(source());
  for (;;) {
    const r = it.next();
    if (r.done) return;
    yield encode(r.value as Document);
  }
}

export const aggregateCommands: Record<string, Handler> = {
  aggregate: (ctx) => {
    const b = ctx.body;
    if (typeof b.aggregate !== 'string') {
      throw new CommandError('CommandNotSupported', 'database-level aggregate ({aggregate: 1}) is not supported by the embedded engine');
    }
    if (!Array.isArray(b.pipeline)) throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
    if (b.explain) throw new CommandError('CommandNotSupported', 'explain is not supported by the embedded engine');
    const cursor = optDoc(b.cursor, 'cursor');
    if (!cursor) throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
    const pipeline = b.pipeline as Document[];
    for (const st of pipeline) {
      const op = Object.keys(st)[0] ?? '';
      if (UNSUPPORTED.has(op)) throw new CommandError('CommandNotSupported', `${op} is not supported by the embedded engine`);
    }
    const extras: QueryExtras = {
      collation: optDoc(b.collation, 'collation'),
      variables: optDoc(b.let, 'let'),
      collectionResolver: resolver(ctx),
    };
    // Pipeline errors surface when the first batch is pulled, inside this handler, as a command error.
    const source = run(ctx, b.aggregate, pipeline, extras);
    return firstBatchReply(ctx, `${ctx.db}.${b.aggregate}`, source, optInt(cursor.batchSize, 'cursor.batchSize'), false);
  },
};
