// The content connections: which collection, parent field, order and visibility each one pages over.
import { childrenCountLoader, childrenPageLoader } from './children.loader.js';
import type { SortSpec } from './paging.js';
import { readArticleReferences, readIssueFollowUps } from './loaders.js';
import { articleProjection, articleType, issueProjection, issueType } from './projections.js';
import { visibleArticle, visibleIssue } from './visibility.js';

/** Issues newest first: by date, then issue number (docs/api.md), then id to make the order total. */
export const issueOrder: SortSpec = [
  ['date', -1],
  ['issueNumber', -1],
  ['_id', -1],
];

/** Articles newest first. */
export const articleOrder: SortSpec = [
  ['firstPublishedDate', -1],
  ['_id', -1],
];

const issues = {
  collection: 'issues',
  parentField: 'pageId',
  visible: visibleIssue,
  sort: issueOrder,
  projection: issueProjection,
  type: issueType,
} as const;
const articlesBy = (parentField: 'categoryIds' | 'authorIds' | 'keywordIds') =>
  ({
    collection: 'articles',
    parentField,
    visible: visibleArticle,
    sort: articleOrder,
    projection: articleProjection,
    type: articleType,
  }) as const;

export const issuesOfPage = childrenPageLoader(issues, readIssueFollowUps);
export const issueCountOfPage = childrenCountLoader(issues);
export const articlesOfCategory = childrenPageLoader(articlesBy('categoryIds'), readArticleReferences);
export const articleCountOfCategory = childrenCountLoader(articlesBy('categoryIds'));
export const articlesOfAuthor = childrenPageLoader(articlesBy('authorIds'), readArticleReferences);
export const articleCountOfAuthor = childrenCountLoader(articlesBy('authorIds'));
export const articlesOfKeyword = childrenPageLoader(articlesBy('keywordIds'), readArticleReferences);
export const articleCountOfKeyword = childrenCountLoader(articlesBy('keywordIds'));
