// searchArticles: published articles matching a text query, most relevant first, with highlighted snippets, the
// total and facet counts over the whole result. Reads go through the store's text index (store/content/search.ts);
// a search engine taking over would replace those reads, not this operation's contract.
import type { Document } from 'mongodb';
import type { Context } from '../../context.js';
import type { Article } from '../../schema/content/article.type.js';
import type {
  ArticleSearchFacets,
  ArticleSearchHighlights,
  ArticleSearchShape,
} from '../../schema/content/article-search.type.js';
import type { ArticleSearchArgs } from '../../schema/content/article-search.input.js';
import type { ConnectionCursors } from '../connections.js';
import { connections, cursorsOf } from '../connections.js';
import { toArticle } from '../../store/content/mappers/article.mapper.js';
import { articleProjection, articleType } from '../../store/content/projections.js';
import {
  SCORE,
  searchCount,
  searchFacets,
  searchOrder,
  searchPage,
  type ArticleSearch,
  type ScoredArticle,
  type SearchFacets,
} from '../../store/content/search.js';
import { visibleArticle } from '../../store/content/visibility.js';
import { Edge, PageInfoOf } from './connection.js';
import { checkFirst } from './input.js';
import { checkQuery, checkSearchFilter } from './search-input.js';
import { facetsOf } from './search-facets.js';
import { snippet, segments } from './search-highlight.js';
import { queryTerms } from './search-terms.js';

/** How long the store may spend on each read of a search (enforced by MongoDB; docs/api.md). */
const TIME_LIMIT_MS = 5_000;

class Highlights implements ArticleSearchHighlights {
  constructor(
    private readonly doc: ScoredArticle,
    private readonly terms: ReadonlySet<string>,
  ) {}

  get title() {
    return segments(this.doc.title, this.terms);
  }

  get summary() {
    return snippet(this.doc.summary, this.terms);
  }
}

class SearchEdge extends Edge<ScoredArticle, Article> {
  constructor(
    node: Article,
    doc: ScoredArticle,
    offset: number,
    cursors: ConnectionCursors,
    private readonly terms: ReadonlySet<string>,
  ) {
    super(node, doc, offset, cursors);
  }

  get score(): number {
    return this.doc[SCORE];
  }

  get highlights(): Highlights {
    return new Highlights(this.doc, this.terms);
  }
}

/** Counts read once, when selected; with facets selected the total comes from the facets' pass. */
class SearchConnection implements ArticleSearchShape {
  #summary: Promise<SearchFacets> | undefined;
  #count: Promise<number> | undefined;
  #facets: Promise<ArticleSearchFacets> | undefined;

  constructor(
    readonly edges: SearchEdge[],
    readonly pageInfo: PageInfoOf,
    private readonly ctx: Context,
    private readonly search: ArticleSearch,
    private readonly withFacets: boolean,
  ) {}

  private summary(): Promise<SearchFacets> {
    return (this.#summary ??= searchFacets(this.ctx.store, this.search));
  }

  get totalCount(): Promise<number> {
    return (this.#count ??= this.withFacets
      ? this.summary().then((s) => s.total)
      : searchCount(this.ctx.store, this.search));
  }

  get facets(): Promise<ArticleSearchFacets> {
    return (this.#facets ??= this.summary().then((s) => facetsOf(this.ctx, s)));
  }
}

/** `withFacets`: whether the query selects `facets` (then one pass over the result counts everything). */
export async function searchArticles(
  ctx: Context,
  args: ArticleSearchArgs,
  withFacets: boolean,
): Promise<ArticleSearchShape> {
  const text = checkQuery(args.query);
  const { filter, binding } = checkSearchFilter(args.filter);
  const first = checkFirst(args.first);
  const search: ArticleSearch = {
    text,
    filter: { ...filter, ...ctx.loaders.visible('articles', visibleArticle) } as Document,
    maxTimeMS: TIME_LIMIT_MS,
  };
  // A cursor stands for a place in one search: the query and the filter are part of what it is bound to.
  const cursors = cursorsOf(ctx, connections.searchArticles, undefined, [text, ...binding]);
  const after = cursors.decode(args.after);
  const always = ['title', 'summary', ...searchOrder.map(([field]) => field).filter((f) => f !== SCORE)];
  const page = await searchPage(ctx.store, search, {
    projection: ctx.loaders.projection(articleProjection, articleType, always),
    first,
    after,
  });
  const terms = queryTerms(text);
  const edges = page.docs.map((doc, i) => new SearchEdge(toArticle(doc), doc, page.startOffset + i, cursors, terms));
  const pageInfo = new PageInfoOf(page.hasNextPage, page.startOffset > 0, edges);
  return new SearchConnection(edges, pageInfo, ctx, search, withFacets);
}
