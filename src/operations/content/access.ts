// Premium access (docs/api.md): computed per viewer on every read, never stored. Known at once for free
// articles and anonymous readers (every article of a list, most of the time); a promise only when a signed-in
// reader's entitlements must be read.
import { hasEntitlement, type Context } from '../../context.js';
import type { Article } from '../../schema/content/article.type.js';

type MaybePromise<T> = T | Promise<T>;

const then = <T, R>(value: MaybePromise<T>, next: (value: T) => R): MaybePromise<R> =>
  value instanceof Promise ? value.then(next) : next(value);

export function accessAllowed(ctx: Context, article: Article): MaybePromise<boolean> {
  if (!(article.accessControlEnabled && article.premium)) return true;
  const viewer = ctx.viewer;
  return viewer ? hasEntitlement(viewer, article.accessGroups, ctx.now) : false;
}

/** The full HTML body, or null for a viewer without access. */
export function articleBody(ctx: Context, article: Article): MaybePromise<string | null> {
  return then(accessAllowed(ctx, article), (allowed) => (allowed ? article.fullBody : null));
}

/** The teaser, cut to `previewLimit` characters (code points, so no character is split) without access. */
export function articlePreview(ctx: Context, article: Article): MaybePromise<string> {
  return then(accessAllowed(ctx, article), (allowed) =>
    allowed
      ? article.fullPreview
      : Array.from(article.fullPreview).slice(0, Math.max(0, article.previewLimit)).join(''),
  );
}
