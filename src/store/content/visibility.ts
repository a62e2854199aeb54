// What anonymous readers may see (docs/api.md): everything else behaves as absent. Customers are
// never editors, so the same filters hold for signed-in viewers.
import type { Filter } from 'mongodb';
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
