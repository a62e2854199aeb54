// Premium live blogs follow the article access rules: a live blog is open when no published article
// carries it or one that carries it is open; otherwise the viewer needs an entitlement of one of them.
// The carriers are cached per process for a minute (a thousand subscribers on one blog ask once).
import { LRUCache } from 'lru-cache';
import { hasEntitlement, type Context } from '../../context.js';
import { visibleArticle } from '../../store/content/visibility.js';

interface Rule {
  open: boolean;
  groups: string[];
}

const rules = new LRUCache<string, Rule>({ max: 10_000, ttl: 60_000 });

async function ruleFor(ctx: Context, liveBlogId: string): Promise<Rule> {
  const key = `${ctx.store.db.databaseName}\u0000${liveBlogId}`;
  const cached = rules.get(key);
  if (cached) return cached;
  const carriers = await ctx.store
    .collection('articles')
    .find({ ...visibleArticle, 'elements.liveBlogIds': liveBlogId }, { projection: { premium: 1, accessControlEnabled: 1, accessGroups: 1 }, limit: 50 })
    .toArray();
  const rule = {
    open: carriers.length === 0 || carriers.some((a) => !(a.accessControlEnabled && a.premium)),
    groups: [...new Set(carriers.flatMap((a) => a.accessGroups ?? []))],
  };
  rules.set(key, rule);
  return rule;
}

export async function mayFollowLiveBlog(ctx: Context, liveBlogId: string): Promise<boolean> {
  const rule = await ruleFor(ctx, liveBlogId);
  return rule.open || hasEntitlement(ctx.viewer, rule.groups, ctx.now);
}
