// aggregate (cursor form). A leading $match, and a $sort with $skip/$limit right after it, are served
// through the planner (an index lookup or an ordered index walk that stops at the limit); the rest of the
// pipeline runs in mingo, lazily where stages allow. $lookup/$graphLookup/$unionWith resolve other
// collections of the same database; the sub-pipelines of $unionWith and of uncorrelated $lookup are run
// here first (so their leading $match/$sort/$limit use indexes too) and handed to mingo as their results.
// The leading $match reads only the fields it names, and when a top-level inclusion $project comes next,
// mingo is handed just the kept fields of each document rather than whole decoded documents.
import type { Document } from 'bson';
import { Aggregator, Query } from '../query/mingo.js';
import type { AnyObject } from 'mingo/types';
import { countPipeline } from '../query/count.js';
import { checkFilter, checkHint, matches, sortedMatches, type StoredMatch } from '../query/exec.js';
import { filterFields, inclusionFields } from '../query/fields.js';
import { effectiveCollation, mingoOptions, type QueryExtras } from '../query/options.js';
import { KeySorter, sortKey, type SortFields } from '../query/sort.js';
import { decode, encode } from '../storage/bsonio.js';
import { LaterReply, letVariables, type CommandContext, type Handler } from './context.js';
import { optDoc, optInt } from './args.js';
import { CommandError } from '../errors.js';
import { encoded, firstBatchReply } from './batches.js';
import { runMerge, runOut, WRITE_STAGES } from './aggregateOut.js';
import { viewOf } from './views.js';
import { holdsText, SCORE_FIELD, scoreStages, splitText, textSearch } from '../query/text.js';
import { NameSet } from '../storage/rawdoc.js';
import {
  countGrouped,
  countingFacet,
  countUnwound,
  groupCount,
  readingFacet,
  unwindCount,
  type CountingBranch,
  type GroupCount,
  type UnwindCount,
} from './aggregate-counts.js';
import { cappedMaxSize, isCapped } from './capped.js';
import { countingBranches, pickFields } from './facet-pass.js';
import { countInHalves } from './facet-thread.js';

const UNSUPPORTED = new Set(['$changeStream', '$currentOp', '$listSessions', '$indexStats', '$search', '$geoNear']);

/** Results of sub-pipelines, under names no collection can have, computed when mingo first asks. */
type Subresults = Map<string, () => AnyObject[]>;

function resolver(ctx: CommandContext, subs: Subresults): (name: string) => AnyObject[] {
  const cache = new Map<string, AnyObject[]>();
  return (name) => {
    let docs = cache.get(name);
    if (!docs) {
      const sub = subs.get(name);
      const coll = sub ? undefined : ctx.state.catalog.get(ctx.db, name);
      docs = sub ? sub() : coll ? [...coll.scan()].map(([, b]) => decode(b) as AnyObject) : [];
      cache.set(name, docs);
    }
    return docs;
  };
}

const isPlainStage = (st: unknown): st is Document => !!st && typeof st === 'object' && !Array.isArray(st);

/** Folds the $skip/$limit stages at the start of `stages` into one window; returns how many it used. */
function windowOf(stages: Document[]): { used: number; skip: number; limit: number } {
  let skip = 0;
  let limit = Infinity;
  let used = 0;
  for (const st of stages) {
    const n: unknown = '$skip' in st ? st.$skip : '$limit' in st ? st.$limit : undefined;
    if (Object.keys(st).length !== 1 || typeof n !== 'number' || !Number.isInteger(n) || n < 0) break;
    if ('$skip' in st) {
      skip += n;
      limit = Math.max(0, limit - n);
    } else {
      if (n === 0) break; // mingo reports the error
      limit = Math.min(limit, n);
    }
    used++;
  }
  return { used, skip, limit };
}

/** A $sort spec this module can run (plain 1/-1 keys; $meta and bad values are left to mingo's errors). */
function plainSort(st: Document | undefined): SortFields | undefined {
  const spec: unknown = st && Object.keys(st).length === 1 ? st.$sort : undefined;
  if (!isPlainStage(spec) || Object.keys(spec).length === 0) return undefined;
  const out: SortFields = [];
  for (const [k, d] of Object.entries(spec)) {
    if (d !== 1 && d !== -1) return undefined;
    out.push([k, d]);
  }
  return out;
}

/**
 * Replaces sub-pipelines that do not depend on the outer document (every $unionWith; $lookup with
 * `pipeline` and neither `let`, `localField` nor `$$` variables) by the names of their precomputed results.
 */
function hoistSubpipelines(ctx: CommandContext, stages: Document[], extras: QueryExtras, subs: Subresults): Document[] {
  const register = (coll: string, pipeline: Document[]): string => {
    const name = `\0sub${subs.size}`;
    subs.set(name, () => [...documents(ctx, coll, pipeline, extras, subs)] as AnyObject[]);
    return name;
  };
  return stages.map((st) => {
    if (!isPlainStage(st) || Object.keys(st).length !== 1) return st;
    if ('$unionWith' in st) {
      const u: unknown = st.$unionWith;
      if (typeof u === 'string') return st; // a whole collection: nothing to plan
      if (!isPlainStage(u) || typeof u.coll !== 'string' || !Array.isArray(u.pipeline)) return st;
      if (Object.keys(u).some((k) => k !== 'coll' && k !== 'pipeline')) return st;
      return { $unionWith: { coll: register(u.coll, u.pipeline as Document[]) } };
    }
    if ('$lookup' in st) {
      const l: unknown = st.$lookup;
      if (!isPlainStage(l) || typeof l.from !== 'string' || !Array.isArray(l.pipeline) || typeof l.as !== 'string')
        return st;
      if (Object.keys(l).some((k) => k !== 'from' && k !== 'pipeline' && k !== 'as')) return st;
      if (JSON.stringify(l.pipeline).includes('$$')) return st;
      return { $lookup: { from: register(l.from, l.pipeline as Document[]), pipeline: [], as: l.as } };
    }
    return st;
  });
}

function* documents(
  ctx: CommandContext,
  target: string,
  pipeline: Document[],
  extras: QueryExtras,
  subs: Subresults,
): Generator<Document> {
  // A view: its pipeline runs first, over its base collection.
  const view = viewOf(ctx, target);
  const name = view?.source ?? target;
  const coll = ctx.state.catalog.get(ctx.db, name);
  const lead = leadingFilter(view ? [...view.pipeline, ...pipeline] : pipeline, extras);
  const { filter, scored } = lead;
  let stages = scoreStages(lead.stages, scored);
  // A $sort right after (and the $skip/$limit that follow it) runs here: the planner may walk an index
  // in sort order and stop at the limit. Collations change order, so those stay with mingo.
  const collated = !!extras.collation && Object.keys(extras.collation).length > 0;
  const sort = scored ? undefined : plainSort(stages[0]);
  // mingo still applies the $project (its output order is kept); it just never sees the other fields.
  let next = stages[0];
  const counting = !!next && Object.keys(next).length === 1 && typeof next.$count === 'string';
  let keep =
    next && Object.keys(next).length === 1 && isPlainStage(next.$project) ? inclusionFields(next.$project) : undefined;
  let source: Iterable<StoredMatch> = [];
  const text = scored ? splitText(filter) : undefined;
  if (coll && text) {
    const byScore = collated ? undefined : scoreSort(stages);
    if (byScore) {
      stages = [...stages.slice(0, byScore.at), ...stages.slice(byScore.at + 1)];
      next = stages[0];
      keep = fieldsRead(stages, byScore.ties);
      source = tiesSorted(
        textSearch(coll, text, extras, {
          byScore: true,
          need: keep ?? 'whole',
          anyOrderInRun: byScore.ties.some(([f]) => f === '_id'),
        }),
        byScore.ties,
      );
    } else source = textSearch(coll, text, extras, { need: counting ? new NameSet([]) : (keep ?? 'whole') });
  } else if (coll && sort && !collated) {
    const w = windowOf(stages.slice(1));
    stages = stages.slice(1 + w.used);
    if (w.limit > 0) source = sortedMatches(coll, filter, extras, sort, w.skip, Number.isFinite(w.limit) ? w.limit : 0);
  } else if (coll) source = matches(coll, filter, extras);
  function* docs(): Generator<Document> {
    for (const m of source) {
      // A $count reads nothing of the documents.
      const d = counting ? {} : keep ? m.fields(keep) : m.doc;
      if (scored) d[SCORE_FIELD] = m.score;
      yield d;
    }
  }
  if (stages.length === 0) {
    yield* scored ? unscored(docs()) : docs();
    return;
  }
  stages = hoistSubpipelines(ctx, stages, extras, subs);
  const out = runStages(stages, docs(), extras);
  yield* scored ? unscored(out) : out;
}

/**
 * The filter of the leading `$match` that storage reads (by its indexes or a text index), checked, and the stages
 * after it. A leading $match with $text gives each document its score (`scored`), which the later stages may read.
 */
function leadingFilter(
  pipeline: Document[],
  extras: QueryExtras,
): { filter: Document; scored: boolean; stages: Document[] } {
  let stages = pipeline;
  let filter: Document = {};
  const scored = !!stages[0] && '$match' in stages[0] && holdsText(stages[0].$match);
  if (stages[0] && '$match' in stages[0] && !JSON.stringify(stages[0].$match ?? {}).includes('"$expr"')) {
    filter = stages[0].$match as Document;
    stages = stages.slice(1);
    // The $match stages right after a $text one test the same documents: one filter, tested on the text
    // index's matches as they are read (MongoDB merges them too).
    while (scored && isMatchStage(stages[0])) {
      const and: unknown = filter.$and;
      filter = Array.isArray(and)
        ? { ...filter, $and: [...(and as unknown[]), stages[0].$match] }
        : { $and: [filter, stages[0].$match] };
      stages = stages.slice(1);
    }
    checkFilter(filter, extras);
  }
  return { filter, scored, stages };
}

const isMatchStage = (st: Document | undefined): st is { $match: Document } =>
  !!st &&
  Object.keys(st).length === 1 &&
  isPlainStage(st.$match) &&
  !holdsText(st.$match) &&
  !JSON.stringify(st.$match).includes('"$expr"');

/** Whether a stage only copies the text score into fields (`{ $addFields: { s: { $meta: 'textScore' } } }`). */
function scoreAliases(st: Document): string[] | undefined {
  const spec: unknown = Object.keys(st).length === 1 ? (st.$addFields ?? st.$set) : undefined;
  if (!isPlainStage(spec)) return undefined;
  const fields = Object.entries(spec);
  return fields.length > 0 && fields.every(([k, v]) => v === '$' + SCORE_FIELD && !k.includes('.'))
    ? fields.map(([k]) => k)
    : undefined;
}

/**
 * A $sort by descending text score first (through SCORE_FIELD or a field copying it), reached over stages that
 * keep the order of documents and change none of their stored fields (score copies, $match): where it is, and
 * the keys that order equal scores. Matches read by descending score and sorted by those keys within each run of
 * equal scores are then in the $sort's order, and a $limit after it stops reading at its last run of equal scores.
 */
function scoreSort(stages: Document[]): { at: number; ties: SortFields } | undefined {
  const aliases = new Set([SCORE_FIELD]);
  for (const [at, st] of stages.entries()) {
    const copies = isPlainStage(st) ? scoreAliases(st) : undefined;
    if (copies) {
      for (const f of copies) aliases.add(f);
      continue;
    }
    if (isPlainStage(st) && Object.keys(st).length === 1 && isPlainStage(st.$match)) continue;
    const fields = plainSort(st);
    if (!fields || !aliases.has(fields[0]![0]) || fields[0]![1] !== -1) return undefined;
    return { at, ties: fields.slice(1).filter(([f]) => !aliases.has(f)) };
  }
  return undefined;
}

/**
 * The top-level fields stages read of the documents they are given, up to an inclusion `$project` (after which
 * they see nothing else), with the fields that order equal scores; undefined when they may read any field or
 * return the documents themselves. Only score copies, `$match`, `$skip` and `$limit` may come before the
 * `$project`: a page of search results decodes its matches' few fields, not their whole documents.
 */
function fieldsRead(stages: Document[], ties: SortFields): NameSet | undefined {
  const names = ties.map(([f]) => f.split('.')[0]!);
  for (const st of stages) {
    if (!isPlainStage(st) || Object.keys(st).length !== 1) return undefined;
    if (scoreAliases(st) || '$limit' in st || '$skip' in st) continue;
    if (isPlainStage(st.$match)) {
      const read = filterFields(st.$match);
      if (!read) return undefined;
      names.push(...read.list);
      continue;
    }
    const projected = isPlainStage(st.$project) ? inclusionFields(st.$project) : undefined;
    return projected && new NameSet([...names, ...projected.list]);
  }
  return undefined;
}

/** Matches in descending score order, each run of equal scores sorted by `ties` (stable: natural order kept). */
function* tiesSorted(matches: Iterable<StoredMatch>, ties: SortFields): Generator<StoredMatch> {
  let run: StoredMatch[] = [];
  const names = new NameSet(ties.flatMap(([f]) => [f, f.split('.')[0]!]));
  function* flush(): Generator<StoredMatch> {
    if (run.length > 1 && ties.length) yield* bsonSortedBy(run, (m) => sortKey(m.fields(names), ties), ties);
    else yield* run;
    run = [];
  }
  for (const m of matches) {
    if (run.length && m.score !== run[0]!.score) yield* flush();
    run.push(m);
  }
  yield* flush();
}

function* bsonSortedBy<T>(input: Iterable<T>, key: (x: T) => unknown[], fields: SortFields): Generator<T> {
  const sorter = new KeySorter<T>(fields);
  for (const x of input) sorter.add(key(x), x);
  yield* sorter.sorted();
}

/** Documents without the score field an aggregation with `$text` carried them. */
function* unscored(docs: Iterable<Document>): Generator<Document> {
  for (const d of docs) {
    if (!(SCORE_FIELD in d)) yield d;
    else {
      const { [SCORE_FIELD]: _, ...rest } = d;
      yield rest;
    }
  }
}

function* mingoStream(stages: Document[], input: Iterable<Document>, extras: QueryExtras): Generator<Document> {
  const it = new Aggregator(stages as AnyObject[], mingoOptions(extras)).stream(input as Iterable<AnyObject>);
  for (;;) {
    const r = it.next();
    if (r.done) return;
    yield r.value as Document;
  }
}

/** An UnwindCount's groups, or (at a value it does not key) what mingo makes of its two stages. */
function* unwoundCounts(
  input: Iterable<Document>,
  counts: UnwindCount,
  stages: Document[],
  extras: QueryExtras,
): Generator<Document> {
  const docs = [...input];
  yield* countUnwound(docs, counts) ?? mingoStream(stages, docs, extras);
}

/** A GroupCount's groups, or (at a value it does not key) what mingo makes of its stage. */
function* groupedCounts(
  input: Iterable<Document>,
  counts: GroupCount,
  stage: Document,
  extras: QueryExtras,
): Generator<Document> {
  const docs = [...input];
  yield* countGrouped(docs, counts) ?? mingoStream([stage], docs, extras);
}

/** A `$facet` whose branches only read: each branch runs here over the same input documents. */
function* facetOf(
  input: Iterable<Document>,
  branches: Array<[string, Document[]]>,
  extras: QueryExtras,
): Generator<Document> {
  const docs = [...input];
  const out: Document = {};
  for (const [name, branch] of branches) out[name] = [...runStages(branch, docs, extras)];
  yield out;
}

/**
 * A `$facet` of counts (countingFacet), counted as its input goes by. A branch that meets a value its count does
 * not key runs its own stages from there on, through mingo, over documents replaying what it had counted and
 * the documents after.
 */
function* countedFacet(
  input: Iterable<Document>,
  branches: CountingBranch[],
  extras: QueryExtras,
): Generator<Document> {
  const tests = branches.map((b) => b.matches.map((m) => new Query(m.$match as AnyObject, mingoOptions(extras))));
  const left: Array<Document[] | undefined> = branches.map(() => undefined);
  for (const d of input) {
    for (let i = 0; i < branches.length; i++) {
      const rest = left[i];
      if (rest) rest.push(d);
      else if (tests[i]!.every((q) => q.test(d as AnyObject)) && !branches[i]!.counter.add(d)) left[i] = [d];
    }
  }
  const out: Document = {};
  branches.forEach((b, i) => {
    const rest = left[i];
    out[b.name] = rest
      ? [
          ...runStages(
            [...b.counting, ...b.after],
            [...b.counter.replay(), ...runStages(b.matches, rest, extras)],
            extras,
          ),
        ]
      : [...runStages(b.after, b.counter.rows(), extras)];
  });
  yield out;
}

const isCount = (st: Document | undefined): boolean =>
  !!st && Object.keys(st).length === 1 && typeof st.$count === 'string';

/**
 * The fields of a top-level inclusion projection, as they are (none is copied: later stages only read), in
 * MongoDB's order: `_id` first, then the others in the document's order.
 */
function* picked(input: Iterable<Document>, keep: NameSet): Generator<Document> {
  const names = new Set(keep.list);
  const id = names.delete('_id');
  for (const d of input) yield pickFields(d, names, id);
}

/** A `$project` stage that includes or computes fields (not one that only excludes). */
const includes = (st: Document): boolean =>
  Object.keys(st).length === 1 &&
  isPlainStage(st.$project) &&
  Object.values(st.$project as Document).some((v) => v !== 0 && v !== false);

/** mingo's `$project` adds `_id` last; MongoDB's output of an inclusion projection starts with it. */
function* idFirst(input: Iterable<Document>): Generator<Document> {
  for (const d of input) {
    let first: string | undefined;
    for (const k in d) {
      first = k;
      break;
    }
    if (first === undefined || first === '_id' || !Object.hasOwn(d, '_id')) yield d;
    else {
      const { _id, ...rest } = d;
      yield { _id, ...rest };
    }
  }
}

function* taken<T>(input: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  let left = n;
  for (const x of input) {
    yield x;
    if (--left === 0) return;
  }
}

/** `input` in `fields` order; only the first `keep` are kept (a `$limit` comes next). */
function* bsonSorted(input: Iterable<Document>, fields: SortFields, keep = Infinity): Generator<Document> {
  const sorter = new KeySorter<Document>(fields, keep);
  for (const d of input) sorter.add(sortKey(d, fields), d);
  yield* sorter.sorted();
}

/**
 * Runs stages through mingo, except that a plain $sort anywhere in the pipeline sorts in BSON order
 * (query/sort.ts: ObjectId before Date, strings by UTF-8 bytes), as MongoDB does; mingo's own order
 * differs. Under a collation mingo sorts (with the collator).
 */
function* runStages(stages: Document[], input: Iterable<Document>, extras: QueryExtras): Generator<Document> {
  const collated = effectiveCollation(extras.collation) !== undefined;
  let src: Iterable<Document> = input;
  let segment: Document[] = [];
  for (let i = 0; i < stages.length; i++) {
    const st = stages[i]!;
    const fields = collated ? undefined : plainSort(st);
    // mingo's $limit reads its whole input: here it stops reading at the limit.
    const limit = windowOf([st]);
    const counts = collated ? undefined : unwindCount(st, stages[i + 1]);
    const grouped = collated || counts ? undefined : groupCount(st);
    const facet = collated ? undefined : readingFacet(st);
    // An inclusion $project before stages that read fields but not their order: picked here (mingo's is slow).
    const pick =
      isPlainStage(st.$project) &&
      Object.keys(st).length === 1 &&
      (readingFacet(stages[i + 1]) || isCount(stages[i + 1]))
        ? inclusionFields(st.$project)
        : undefined;
    if (!pick && includes(st)) {
      src = idFirst(mingoStream([...segment, st], src, extras));
      segment = [];
      continue;
    }
    if (!fields && !(limit.used === 1 && '$limit' in st) && !counts && !grouped && !facet && !pick) {
      segment.push(st);
      continue;
    }
    if (segment.length) src = mingoStream(segment, src, extras);
    segment = [];
    if (counts) {
      src = unwoundCounts(src, counts, stages.slice(i, i + 2), extras);
      i++;
    } else if (grouped) src = groupedCounts(src, grouped, st, extras);
    else if (facet) {
      const counting = countingFacet(facet);
      src = counting ? countedFacet(src, counting, extras) : facetOf(src, facet, extras);
    } else if (pick) src = picked(src, pick);
    else if (fields) {
      // The $skip and $limit after a $sort still run; the sort keeps only what they can pass.
      const w = windowOf(stages.slice(i + 1));
      src = bsonSorted(src, fields, w.skip + w.limit);
    } else src = taken(src, limit.limit);
  }
  if (segment.length) src = mingoStream(segment, src, extras);
  yield* src;
}

export const aggregateCommands: Record<string, Handler> = {
  aggregate: (ctx) => {
    const b = ctx.body;
    const dbLevel = b.aggregate === 1 || b.aggregate === 1.0;
    if (typeof b.aggregate !== 'string' && !dbLevel)
      throw new CommandError('InvalidNamespace', `Invalid aggregate namespace: ${String(b.aggregate)}`);
    if (!Array.isArray(b.pipeline))
      throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
    if (b.explain) throw new CommandError('CommandNotSupported', 'explain is not supported by the embedded engine');
    const cursor = optDoc(b.cursor, 'cursor');
    if (!cursor)
      throw new CommandError(
        'FailedToParse',
        "The 'cursor' option is required, except for aggregate with the explain argument",
      );
    const pipeline = b.pipeline as Document[];
    for (const [i, st] of pipeline.entries()) {
      const op = Object.keys(st)[0] ?? '';
      if (UNSUPPORTED.has(op))
        throw new CommandError('CommandNotSupported', `${op} is not supported by the embedded engine`);
      if (WRITE_STAGES.has(op) && i !== pipeline.length - 1)
        throw new CommandError('Location40601', `${op} can only be the final stage in the pipeline`);
      if (op === '$collStats' && i !== 0)
        throw new CommandError('Location40602', '$collStats is only valid as the first stage in a pipeline');
      if (op === '$match' && i !== 0 && holdsText(st.$match))
        throw new CommandError('Location17313', '$match with $text is only allowed as the first pipeline stage');
    }
    const subs: Subresults = new Map();
    const extras: QueryExtras = {
      collation: optDoc(b.collation, 'collation'),
      variables: letVariables(ctx),
      collectionResolver: resolver(ctx, subs),
    };
    if (!dbLevel) checkHint(ctx.state.catalog.get(ctx.db, b.aggregate as string), b.hint);
    const last = pipeline.at(-1);
    const writes = last && WRITE_STAGES.has(Object.keys(last)[0]!) ? last : undefined;
    const stages = writes ? pipeline.slice(0, -1) : pipeline;
    const ns = dbLevel ? `${ctx.db}.$cmd.aggregate` : `${ctx.db}.${b.aggregate as string}`;
    // Pipeline errors surface when the first batch is pulled, inside this handler, as a command error.
    const batchSize = optInt(cursor.batchSize, 'cursor.batchSize');
    const halves =
      dbLevel || writes || ctx.sequential ? undefined : facetsInHalves(ctx, b.aggregate as string, stages, extras);
    if (halves)
      throw new LaterReply(
        halves.then((doc) => doc && firstBatchReply(ctx, ns, [encode(doc)].values(), batchSize, false)),
      );
    const counted = dbLevel || writes ? undefined : countedFromIndex(ctx, b.aggregate as string, stages, extras);
    if (counted) return firstBatchReply(ctx, ns, counted.map((d) => encode(d)).values(), batchSize, false);
    const results = dbLevel
      ? databaseDocuments(ctx, stages, extras)
      : stages[0] && '$collStats' in stages[0]
        ? runStages(
            stages.slice(1),
            [collStats(ctx, b.aggregate as string, optDoc(stages[0].$collStats, '$collStats') ?? {})],
            extras,
          )
        : documents(ctx, b.aggregate as string, stages, extras, subs);
    if (writes) {
      const docs = [...results];
      if ('$out' in writes) runOut(ctx, writes.$out, docs);
      else runMerge(ctx, writes.$merge, docs);
      return firstBatchReply(ctx, ns, [].values(), 0, false);
    }
    return firstBatchReply(ctx, ns, encoded(results), batchSize, false);
  },
};

/**
 * A search's facets (a `$match` with `$text`, more `$match`, an inclusion `$project`, a `$facet` of counts) counted
 * on two threads (facet-thread.ts): the promise of the answer's one document (undefined: run the command again
 * on this thread alone); undefined when this thread counts it alone, now.
 */
function facetsInHalves(
  ctx: CommandContext,
  name: string,
  pipeline: Document[],
  extras: QueryExtras,
): Promise<Document | undefined> | undefined {
  const last = pipeline.at(-1);
  if (!last || Object.keys(last).length !== 1 || !isPlainStage(last.$facet)) return undefined;
  const coll = ctx.state.catalog.get(ctx.db, name);
  const collated = !!extras.collation && Object.keys(extras.collation).length > 0;
  // Variables and `$expr` are left to this thread (the other is given plain filters only).
  if (!coll || collated || viewOf(ctx, name) || /"\$expr"|\$\$/.test(JSON.stringify(pipeline))) return undefined;
  const lead = leadingFilter(pipeline, extras);
  const [project, facet] = lead.stages;
  if (!lead.scored || lead.stages.length !== 2 || Object.keys(project!).length !== 1) return undefined;
  const keep = isPlainStage(project!.$project) ? inclusionFields(project!.$project) : undefined;
  const spec = facet!.$facet as Document;
  if (!keep || !countingBranches(spec)) return undefined;
  const parts = countInHalves(
    coll,
    ctx.state.catalog.env,
    splitText(lead.filter)!,
    extras,
    { keep: keep.list, facet: spec },
    ctx.state.parallelFacetsFrom,
    ctx.state.log,
  );
  return parts?.then((p) => {
    if (!p) return undefined;
    const branches = countingBranches(spec)!;
    for (const part of p) part.forEach((t, i) => branches[i]!.counter.absorb(t));
    const out: Document = {};
    for (const b of branches) out[b.name] = [...runStages(b.after, b.counter.rows(), extras)];
    return out;
  });
}

/**
 * A counting pipeline answered from an index (query/count.ts), or undefined. Not on a view (its own pipeline
 * comes first) nor under a collation; the leading $match is still checked as MongoDB would check it.
 */
function countedFromIndex(
  ctx: CommandContext,
  name: string,
  pipeline: Document[],
  extras: QueryExtras,
): Document[] | undefined {
  if (viewOf(ctx, name)) return undefined;
  const collated = !!extras.collation && Object.keys(extras.collation).length > 0;
  const counted = countPipeline(ctx.state.catalog.get(ctx.db, name), pipeline, collated);
  if (counted) checkFilter(pipeline[0]!.$match as Document, extras);
  return counted;
}

/**
 * A database-level aggregate ({aggregate: 1}): its first stage makes the documents. $listLocalSessions
 * lists the calling session only (sessions are accepted but not tracked).
 */
function* databaseDocuments(ctx: CommandContext, stages: Document[], extras: QueryExtras): Generator<Document> {
  const first = stages[0] ?? {};
  let source: Document[];
  if ('$documents' in first) {
    const given: unknown = first.$documents;
    source = Array.isArray(given)
      ? (given as Document[])
      : ((new Aggregator([{ $replaceWith: { v: given } }], mingoOptions(extras)).run([{}])[0] as Document)
          .v as Document[]);
    if (!Array.isArray(source)) throw new CommandError('Location5858203', 'an array is expected');
  } else if ('$listLocalSessions' in first) {
    const lsid = ctx.body.lsid as Document | undefined;
    source = lsid ? [{ _id: { id: lsid.id, uid: Buffer.alloc(32) }, lastUse: new Date() }] : [];
  } else {
    throw new CommandError(
      'InvalidNamespace',
      `{aggregate: 1} is not valid for '${Object.keys(first)[0] ?? ''}'; a collection is required.`,
    );
  }
  const rest = stages.slice(1);
  if (rest.length === 0) {
    yield* source;
    return;
  }
  yield* runStages(rest, source, extras);
}

/**
 * The $collStats document: `count` and `storageStats` (sizes are the documents' BSON bytes; storage keeps
 * no per-collection file, so storageSize is that figure too and index sizes are not reported).
 */
function collStats(ctx: CommandContext, name: string, spec: Document): Document {
  const coll = ctx.state.catalog.get(ctx.db, name);
  const out: Document = { ns: `${ctx.db}.${name}`, host: 'embedded', localTime: new Date() };
  for (const k of Object.keys(spec)) {
    if (k !== 'count' && k !== 'storageStats')
      throw new CommandError('CommandNotSupported', `$collStats '${k}' is not supported by the embedded engine`);
  }
  if ((spec.count || spec.storageStats) && !coll)
    throw new CommandError(
      'NamespaceNotFound',
      `Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [${ctx.db}.${name}] not found.`,
    );
  if (spec.count) out.count = coll!.size;
  if (spec.storageStats) {
    const st: Document = {
      size: coll!.dataSize,
      count: coll!.size,
      ...(coll!.size ? { avgObjSize: Math.floor(coll!.dataSize / coll!.size) } : {}),
      storageSize: coll!.dataSize,
      capped: isCapped(coll!),
      nindexes: coll!.indexes.size,
    };
    if (isCapped(coll!)) {
      st.maxSize = cappedMaxSize(Number(coll!.options.size));
      if (coll!.options.max !== undefined) st.max = Number(coll!.options.max);
    }
    out.storageStats = st;
  }
  return out;
}

/** Documents of a pipeline over a collection or view (for reads on views by find/count). */
export function pipelineDocuments(
  ctx: CommandContext,
  name: string,
  pipeline: Document[],
  extras: QueryExtras = {},
): Generator<Document> {
  const subs: Subresults = new Map();
  return documents(ctx, name, pipeline, { ...extras, collectionResolver: resolver(ctx, subs) }, subs);
}
