// `store copy`: every selected collection of one store into another through the driver: collection options,
// documents (a --resume re-run replaces by _id, so it converges), then indexes; finally counts and digests of
// both sides compared per collection. TTL indexes come last, after the comparison, so the target's sweeper
// cannot delete an expired document between the copy and the check.
import type { Db, Document } from 'mongodb';
import { EXACT_TYPES } from './bson-file.js';
import { summarize, type CollectionSummary } from './digest.js';
import { ToolError } from './errors.js';
import { createCollection, createIndexes, isTtlIndex, readIndexes } from './indexes.js';
import type { Progress } from './progress.js';
import { listSourceCollections, select, type CollectionPlan, type SelectionOptions } from './selection.js';
import { writeAll } from './writer.js';

export interface CopyOptions extends SelectionOptions {
  /** Drop the selected collections in the target first. */
  drop?: boolean;
  /** Keep what the target holds and upsert over it (continuing an interrupted copy). */
  resume?: boolean;
  batchSize?: number;
  progress: Progress;
}

export interface CollectionCheck {
  name: string;
  source: CollectionSummary;
  target: CollectionSummary;
  same: boolean;
}

export interface CopyReport {
  collections: CollectionCheck[];
  documents: number;
  seconds: number;
  /** Of `seconds`, the time spent reading both sides back for the comparison. */
  checkSeconds: number;
}

/** Collections of `plans` that already hold documents in `db`, with their counts. */
export async function nonEmpty(db: Db, names: string[]): Promise<Array<{ name: string; count: number }>> {
  const counts = await Promise.all(
    names.map(async (name) => ({ name, count: await db.collection(name).countDocuments({}, { limit: 1 }) })),
  );
  return counts.filter((c) => c.count > 0);
}

export function refuseNonEmpty(label: string, held: Array<{ name: string }>, alternatives: string): void {
  if (held.length === 0) return;
  throw new ToolError(`${label} already holds documents in ${held.map((h) => h.name).join(', ')}: ${alternatives}`);
}

export async function copyStore(
  from: { db: Db; label: string },
  to: { db: Db; label: string },
  opts: CopyOptions,
): Promise<CopyReport> {
  const started = performance.now();
  const sources = (await listSourceCollections(from.db)).filter((c) => c.type === 'collection');
  const plans = select(
    sources.map((c) => c.name),
    opts,
  );
  if (opts.drop && opts.resume) throw new ToolError('--drop and --resume contradict each other: choose one');
  if (!opts.drop && !opts.resume) {
    refuseNonEmpty(
      to.label,
      await nonEmpty(
        to.db,
        plans.map((p) => p.name),
      ),
      'pass --drop to replace those collections, or --resume to continue an interrupted copy',
    );
  }
  if (opts.drop)
    for (const plan of plans)
      await to.db
        .collection(plan.name)
        .drop()
        .catch(() => undefined);

  const ttl = new Map<string, Document[]>();
  let documents = 0;
  for (const plan of plans) {
    const source = sources.find((c) => c.name === plan.name)!;
    await createCollection(to.db, plan.name, source.options);
    documents += await copyDocuments(from.db, to.db, plan, opts);
    const indexes = await readIndexes(from.db, plan.name);
    await createIndexes(
      to.db,
      plan.name,
      indexes.filter((i) => !isTtlIndex(i)),
    );
    ttl.set(plan.name, indexes.filter(isTtlIndex));
  }
  opts.progress.stop();

  const checking = performance.now();
  const collections: CollectionCheck[] = [];
  for (const plan of plans) {
    const [source, target] = await Promise.all([
      summarize(from.db, plan.name, plan.filter),
      summarize(to.db, plan.name),
    ]);
    collections.push({
      name: plan.name,
      source,
      target,
      same: source.count === target.count && source.digest === target.digest,
    });
  }
  for (const [name, specs] of ttl) await createIndexes(to.db, name, specs);
  const done = performance.now();
  return { collections, documents, seconds: (done - started) / 1000, checkSeconds: (done - checking) / 1000 };
}

async function copyDocuments(from: Db, to: Db, plan: CollectionPlan, opts: CopyOptions): Promise<number> {
  const source = from.collection(plan.name);
  const total = Object.keys(plan.filter).length
    ? await source.countDocuments(plan.filter)
    : await source.estimatedDocumentCount();
  opts.progress.start(plan.name, total);
  const batchSize = opts.batchSize ?? 1000;
  // Numbers keep their BSON type (an int32 stays int32, 1.0 stays a double): the bytes written are the bytes read.
  const cursor = source.find(plan.filter, { ...EXACT_TYPES, batchSize });
  return writeAll(to, plan.name, cursor, {
    batchSize,
    mode: opts.resume ? 'replace' : 'insert',
    written: (n) => opts.progress.advance(plan.name, n),
  });
}
