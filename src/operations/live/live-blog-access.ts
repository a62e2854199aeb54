// Premium live blogs follow the article access rules (docs/api.md): a live blog is open when no published
// article carries it or one that carries it is open; otherwise the viewer needs an active entitlement for an
// access group of one of the premium articles carrying it (an article without groups names `subscription`).
//
// Two ways to ask, one rule:
// - reads (`LiveBlog.previewMessages`, `accessAllowed`) go through a request loader: one store command per batch
//   of live blogs, whatever their number and the number of articles carrying them, and never a rule older than
//   the request, so an answer the response cache keeps (evicted on article writes) never rests on a stale rule;
// - subscriptions ask once per subscriber, so the rule is kept per process for a minute (a thousand
//   subscribers on one blog ask the store once).
import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import type { Document } from 'mongodb';
import { hasEntitlement, type Context } from '../../context.js';
import { DEFAULT_ACCESS_GROUP } from '../../store/content/mappers/article.mapper.js';
import { visibleArticle } from '../../store/content/visibility.js';
import { instrumentBatch, type LoaderFactory } from '../../store/loaders.js';
import type { Store } from '../../store/store.js';

interface LiveBlogAccessRule {
  open: boolean;
  /** The access groups whose entitlement opens a blog that is not open. */
  groups: readonly string[];
}

const OPEN: LiveBlogAccessRule = { open: true, groups: [] };

interface CarriersOfBlog {
  _id: string;
  /** True when every published article carrying the blog is premium (access control on). */
  locked: boolean;
  /** Per premium carrier, its access groups (null for an open carrier). */
  groups: Array<string[] | null>;
}

/**
 * The rules of `ids`, in order, from one aggregate: published carriers of any of them, one row per blog with
 * whether all its carriers are premium and their access groups. The answer grows with the number of blogs,
 * not of carriers (a blog carried by 600 articles is one row).
 */
async function rulesOf(store: Store, ids: readonly string[]): Promise<LiveBlogAccessRule[]> {
  const pipeline: Document[] = [
    { $match: { ...visibleArticle, 'elements.liveBlogIds': { $in: [...ids] } } },
    {
      $project: {
        _id: 0,
        blog: '$elements.liveBlogIds',
        locked: { $and: [{ $eq: ['$accessControlEnabled', true] }, { $eq: ['$premium', true] }] },
        groups: { $ifNull: ['$accessGroups', []] },
      },
    },
    { $unwind: '$blog' },
    { $match: { blog: { $in: [...ids] } } },
    {
      $group: {
        _id: '$blog',
        locked: { $min: '$locked' },
        groups: { $addToSet: { $cond: ['$locked', '$groups', null] } },
      },
    },
  ];
  const rows = await store
    .collection('articles')
    .aggregate<CarriersOfBlog>(pipeline, { batchSize: Math.max(1, ids.length) })
    .toArray();
  const byBlog = new Map(rows.map((row) => [row._id, row]));
  return ids.map((id) => {
    const row = byBlog.get(id);
    if (!row || !row.locked) return OPEN;
    const groups = row.groups.flatMap((g) => (g === null ? [] : g.length ? g : [DEFAULT_ACCESS_GROUP]));
    return { open: false, groups: [...new Set(groups)] };
  });
}

/** Per request: the access rule of each live blog, one store command per batch. */
const liveBlogAccessRule: LoaderFactory<string, LiveBlogAccessRule> = (store) =>
  new DataLoader<string, LiveBlogAccessRule>(
    instrumentBatch('liveBlogAccessRule', (ids) => rulesOf(store, ids)),
    { maxBatchSize: 1000 },
  );

const allowedBy = (ctx: Context, rule: LiveBlogAccessRule): Promise<boolean> =>
  rule.open ? Promise.resolve(true) : hasEntitlement(ctx.viewer, rule.groups, ctx.now);

/**
 * Records, for the request, that the blogs `carriers` carry are open when one of them is: a blog is open as soon as
 * one published article carrying it is, so an open carrier already read (a published article, as every article
 * read for an answer is) settles the rule without the aggregate over every carrier.
 */
export function knownCarriers(
  ctx: Context,
  carriers: Iterable<{ accessControlEnabled: boolean; premium: boolean; elements: { liveBlogIds: string[] } }>,
): void {
  const rules = ctx.loaders.get(liveBlogAccessRule);
  for (const article of carriers)
    if (!(article.accessControlEnabled && article.premium))
      for (const id of article.elements.liveBlogIds) rules.prime(id, OPEN);
}

/**
 * Whether the reader may read the blog's messages (through the request's loaders). For a signed-in reader the
 * answer depends only on their active entitlements, which is what a shared answer is keyed by; for anonymous
 * readers, only on the blog, so their public answers never hold a premium blog's messages.
 */
export async function mayReadLiveBlog(ctx: Context, liveBlogId: string): Promise<boolean> {
  return allowedBy(ctx, await ctx.loaders.get(liveBlogAccessRule).load(liveBlogId));
}

const rules = new LRUCache<string, LiveBlogAccessRule>({ max: 10_000, ttl: 60_000 });

/** Whether the viewer may subscribe to the blog (the rule kept per process for a minute). */
export async function mayFollowLiveBlog(ctx: Context, liveBlogId: string): Promise<boolean> {
  const key = `${ctx.store.db.databaseName}\u0000${liveBlogId}`;
  let rule = rules.get(key);
  if (!rule) {
    [rule] = (await rulesOf(ctx.store, [liveBlogId])) as [LiveBlogAccessRule];
    rules.set(key, rule);
  }
  return allowedBy(ctx, rule);
}
