// Bulk insertion for generated content: batches of ~1000 built on demand, a few in flight at once so
// generation overlaps the store's work, unordered so one batch is one round trip.
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { ArticleDoc } from '../store/content/article.doc.js';
import type { SeedRun } from './seeder.js';

export interface InsertOptions {
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
}

/** Inserts documents `make(0)`..`make(total - 1)` into `collection`; returns `total`. */
export async function insertGenerated<T extends Document>(
  run: SeedRun,
  collection: string,
  total: number,
  make: (index: number) => T,
  opts: InsertOptions = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? 1000;
  const coll = run.store.db.collection<T>(collection);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const start = next;
      next = Math.min(total, start + batchSize);
      const batch: T[] = [];
      for (let i = start; i < next; i++) batch.push(make(i));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await coll.insertMany(batch as any[], { ordered: false });
      run.progress.advance(collection, batch.length, total);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 3) }, worker));
  return total;
}

/** Inserts an already built list (small collections). */
export const insertList = <T extends Document>(run: SeedRun, collection: string, docs: T[]): Promise<number> =>
  insertGenerated(run, collection, docs.length, (i) => docs[i]!);

/**
 * The `articlesCount` counters of categories and keywords, as the CMS would keep them: published
 * articles only, counted while the articles are generated and written once they all are.
 */
export class ArticleCounters {
  private readonly categories = new Map<string, number>();
  private readonly keywords = new Map<string, number>();

  add(article: ArticleDoc): ArticleDoc {
    if (article.status === 'published') {
      for (const c of article.categoryIds) this.categories.set(c, (this.categories.get(c) ?? 0) + 1);
      for (const k of article.keywordIds) this.keywords.set(k, (this.keywords.get(k) ?? 0) + 1);
    }
    return article;
  }

  async store(run: SeedRun): Promise<void> {
    for (const [collection, counts] of [
      ['contentCategories', this.categories],
      ['keywords', this.keywords],
    ] as const) {
      const coll = run.store.db.collection<{ _id: string; articlesCount: number }>(collection);
      const updates: AnyBulkWriteOperation<{ _id: string; articlesCount: number }>[] = [...counts].map(([id, n]) => ({
        updateOne: { filter: { _id: id }, update: { $set: { articlesCount: n } } },
      }));
      for (let i = 0; i < updates.length; i += 1000)
        await coll.bulkWrite(updates.slice(i, i + 1000), { ordered: false });
    }
  }
}
