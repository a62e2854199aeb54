// count and distinct.
import type { Document } from 'bson';
import { collationOf, foldValues } from '../collation/index.js';
import { countFromIndex } from '../query/count.js';
import { checkFilter, checkHint, matches } from '../query/exec.js';
import { encodeKey, valuesAtPath } from '../storage/keys.js';
import { collName, type Handler } from './context.js';
import { optDoc, optInt } from './args.js';
import { CommandError } from '../errors.js';
import { pipelineDocuments } from './aggregate.js';
import { viewOf } from './views.js';

export const countCommands: Record<string, Handler> = {
  count: (ctx) => {
    const b = ctx.body;
    const coll = ctx.state.catalog.get(ctx.db, collName(ctx));
    const filter = optDoc(b.query, 'query') ?? {};
    const skip = Math.max(0, optInt(b.skip, 'skip') ?? 0);
    const limit = Math.abs(optInt(b.limit, 'limit') ?? 0);
    let n = 0;
    checkFilter(filter);
    checkHint(coll, b.hint);
    if (viewOf(ctx, collName(ctx))) for (const _ of pipelineDocuments(ctx, collName(ctx), [{ $match: filter }])) n++;
    else if (coll) {
      // Counted from an index where one can answer exactly (query/count.ts); never under a collation.
      const collation = optDoc(b.collation, 'collation');
      const fromIndex = countFromIndex(coll, filter, !!collation && Object.keys(collation).length > 0);
      if (fromIndex !== undefined) n = fromIndex;
      else for (const _ of matches(coll, filter, { collation })) n++;
    }
    n = Math.max(0, n - skip);
    if (limit > 0) n = Math.min(n, limit);
    return { n, ok: 1 };
  },

  distinct: (ctx) => {
    const b = ctx.body;
    if (typeof b.key !== 'string')
      throw new CommandError('FailedToParse', "BSON field 'distinct.key' is missing but a required field");
    const path = b.key.split('.');
    const coll = ctx.state.catalog.get(ctx.db, collName(ctx));
    const seen = new Set<string>();
    const values: unknown[] = [];
    checkFilter(optDoc(b.query, 'query'));
    const collation = collationOf(optDoc(b.collation, 'collation'));
    const add = (v: unknown): void => {
      if (v === undefined) return;
      // Values equal under the collation are one value (the first met), as in MongoDB.
      const k = encodeKey(collation ? foldValues(v, collation) : v);
      if (seen.has(k)) return;
      seen.add(k);
      values.push(v);
    };
    if (coll) {
      for (const m of matches(coll, optDoc(b.query, 'query') ?? {}, { collation: optDoc(b.collation, 'collation') })) {
        for (const v of valuesAtPath(m.doc, path)) {
          if (Array.isArray(v)) v.forEach(add);
          else add(v);
        }
      }
    }
    const reply: Document = { values, ok: 1 };
    return reply;
  },
};
