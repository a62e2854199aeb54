// What readers may see (docs/api.md): everything else behaves as absent. Signed-in readers and editors see the same,
// unless a request asks for a preview (below), which widens them for that request alone.
import type { Document, Filter } from 'mongodb';
import type { ArticleDoc } from './article.doc.js';
import type { IssueDoc } from './page.doc.js';
import type { ContentCategoryDoc } from './taxonomy.doc.js';
import type { VideoDoc } from './media.doc.js';
import type { QuizDoc } from './elements.doc.js';

export const visibleArticle: Filter<ArticleDoc> = { status: 'published' };
export const visibleIssue: Filter<IssueDoc> = { status: 'published' };
export const visibleCategory: Filter<ContentCategoryDoc> = { status: 'active' };
export const visibleVideo: Filter<VideoDoc> = { status: 'ready' };
export const visibleQuiz: Filter<QuizDoc> = { status: { $in: ['open', 'closed'] } };

/**
 * What a preview shows beyond readers' rules: every article and issue whatever its status (an editor's preview), or
 * one of them as it stands (a preview link), wherever readers would find it were it published.
 */
export type Preview = { every: true } | { collection: 'articles' | 'issues'; id: string };

const EVERY_STATUS = {};

/** The filters a preview's reads apply (store/loaders.ts `Sight`): one object per collection, so its reads merge. */
export function previewSight(preview: Preview): (collection: string, visible: Document) => Document {
  if ('every' in preview)
    return (collection, visible) => (collection === 'articles' || collection === 'issues' ? EVERY_STATUS : visible);
  const widened = new WeakMap<Document, Document>();
  return (collection, visible) => {
    if (collection !== preview.collection) return visible;
    let filter = widened.get(visible);
    // `$and` around the `$or`: the keyset filter of a page (store/content/paging.ts) brings an `$or` of its own.
    if (!filter) widened.set(visible, (filter = { $and: [{ $or: [visible, { _id: preview.id }] }] }));
    return filter;
  };
}
