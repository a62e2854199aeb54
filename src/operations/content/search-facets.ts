// A search's facet counts as the API shows them: each bucket with its category, author or keyword, read through
// the request's loaders. A bucket whose object a reader may not see (an inactive category, a deleted keyword)
// is left out.
import type { Context } from '../../context.js';
import type { ArticleSearchFacets } from '../../schema/content/article-search.type.js';
import { authorById, categoryById, keywordById } from '../../store/content/loaders.js';
import { toAuthor, toCategory, toKeyword } from '../../store/content/mappers/taxonomy.mapper.js';
import type { Bucket, SearchFacets } from '../../store/content/search.js';

async function withObjects<D, T>(
  buckets: Bucket<string>[],
  load: (id: string) => Promise<D | null>,
  map: (doc: D) => T,
): Promise<Array<{ object: T; count: number }>> {
  const docs = await Promise.all(buckets.map((b) => load(b.value)));
  const out: Array<{ object: T; count: number }> = [];
  docs.forEach((doc, i) => {
    if (doc) out.push({ object: map(doc), count: buckets[i]!.count });
  });
  return out;
}

export async function facetsOf(ctx: Context, facets: SearchFacets): Promise<ArticleSearchFacets> {
  const categories = ctx.loaders.get(categoryById);
  const authors = ctx.loaders.get(authorById);
  const keywords = ctx.loaders.get(keywordById);
  const [c, a, k] = await Promise.all([
    withObjects(facets.categories, (id) => categories.load(id), toCategory),
    withObjects(facets.authors, (id) => authors.load(id), toAuthor),
    withObjects(facets.keywords, (id) => keywords.load(id), toKeyword),
  ]);
  return {
    categories: c.map(({ object, count }) => ({ category: object, count })),
    authors: a.map(({ object, count }) => ({ author: object, count })),
    keywords: k.map(({ object, count }) => ({ keyword: object, count })),
    years: facets.years.map(({ value, count }) => ({ year: value, count })),
  };
}
