// The documents an article shown whole refers to by id, by the collection that stores them: what the REST issue
// list reads ahead for the articles it shows (page-issues.read.ts), and what a kept representation of an issue
// depends on (page-issues.shows.ts).
import type { Article } from '../../schema/content/article.type.js';

export interface ArticleRefs {
  contentTypes: Set<string>;
  sponsors: Set<string>;
  contentCategories: Set<string>;
  authors: Set<string>;
  keywords: Set<string>;
  videos: Set<string>;
  liveBlogs: Set<string>;
  polls: Set<string>;
  quizzes: Set<string>;
}

export const noRefs = (): ArticleRefs => ({
  contentTypes: new Set(),
  sponsors: new Set(),
  contentCategories: new Set(),
  authors: new Set(),
  keywords: new Set(),
  videos: new Set(),
  liveBlogs: new Set(),
  polls: new Set(),
  quizzes: new Set(),
});

export function addArticleRefs(refs: ArticleRefs, a: Article): void {
  const add = (set: Set<string>, id: string | null): void => void (id && set.add(id));
  const addAll = (set: Set<string>, ids: readonly string[]): void => ids.forEach((id) => set.add(id));
  add(refs.contentTypes, a.contentTypeId);
  add(refs.sponsors, a.sponsorId);
  addAll(refs.contentCategories, a.categoryIds);
  add(refs.contentCategories, a.categoryId);
  addAll(refs.authors, a.authorIds);
  add(refs.authors, a.authorId);
  addAll(refs.keywords, a.keywordIds);
  for (const list of [a.attachments, a.inlineAttachments, a.files, a.videos])
    for (const attachment of list) add(refs.videos, attachment.videoId);
  addAll(refs.liveBlogs, a.elements.liveBlogIds);
  addAll(refs.polls, a.elements.pollIds);
  addAll(refs.quizzes, a.elements.quizIds);
}
