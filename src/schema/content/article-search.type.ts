// The result of `searchArticles`: a Relay connection whose edges carry a relevance score and highlighted
// snippets, and facet counts over the whole result.
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Article } from './article.type.js';
import { Author } from './author.type.js';
import { ContentCategory } from './category.type.js';
import { PageInfo } from './connection.type.js';
import { Keyword } from './keyword.type.js';

@ObjectType({ description: 'A run of plain text; `match` marks the words the query looked for' })
export class TextSegment {
  @Field({ description: 'The text, as stored (plain text: render it escaped, never as markup)' })
  text!: string;

  @Field({ description: 'Whether this run is a word the query matched (show it highlighted)' })
  match!: boolean;
}

@ObjectType({ description: 'Why an article matched: its title and summary with the matched words marked' })
export class ArticleSearchHighlights {
  @Field(() => [TextSegment], { description: 'The whole title, as segments' })
  title!: TextSegment[];

  @Field(() => [TextSegment], {
    description:
      'The summary, as segments: whole up to 200 characters, else about 200 around the first match, `…` where cut',
  })
  summary!: TextSegment[];
}

@ObjectType({ description: 'One article of a page of search results, with its cursor and relevance' })
export class ArticleSearchEdge {
  @Field({ description: 'Opaque position of this item; pass it as `after`' })
  cursor!: string;

  @Field(() => Article, { description: 'The article' })
  node!: Article;

  @Field(() => Float, { description: 'Relevance to the query (higher is better); comparable within one search only' })
  score!: number;

  @Field(() => ArticleSearchHighlights, { description: 'The title and summary with the matched words marked' })
  highlights!: ArticleSearchHighlights;
}

@ObjectType({ description: 'A content category and how many results are filed under it' })
export class CategoryFacet {
  @Field(() => ContentCategory, { description: 'The category' })
  category!: ContentCategory;

  @Field(() => Int, { description: 'Results filed under it' })
  count!: number;
}

@ObjectType({ description: 'An author and how many results they wrote' })
export class AuthorFacet {
  @Field(() => Author, { description: 'The author' })
  author!: Author;

  @Field(() => Int, { description: 'Results by this author' })
  count!: number;
}

@ObjectType({ description: 'A keyword and how many results carry it' })
export class KeywordFacet {
  @Field(() => Keyword, { description: 'The keyword' })
  keyword!: Keyword;

  @Field(() => Int, { description: 'Results tagged with it' })
  count!: number;
}

@ObjectType({ description: 'A year and how many results were first published in it' })
export class YearFacet {
  @Field(() => Int, { description: 'The year (UTC)' })
  year!: number;

  @Field(() => Int, { description: 'Results first published in that year' })
  count!: number;
}

@ObjectType({ description: 'Counts over the whole result (every page), largest first: what each filter would leave' })
export class ArticleSearchFacets {
  @Field(() => [CategoryFacet], { description: 'The 20 categories with the most results' })
  categories!: CategoryFacet[];

  @Field(() => [AuthorFacet], { description: 'The 20 authors with the most results' })
  authors!: AuthorFacet[];

  @Field(() => [KeywordFacet], { description: 'The 20 keywords with the most results' })
  keywords!: KeywordFacet[];

  @Field(() => [YearFacet], { description: 'Every year with results, newest first' })
  years!: YearFacet[];
}

/** What the operation returns: counts and facets are getters, read only when selected. */
export interface ArticleSearchShape {
  edges: ArticleSearchEdge[];
  pageInfo: PageInfo;
  readonly totalCount: Promise<number>;
  readonly facets: Promise<ArticleSearchFacets>;
}

@ObjectType({ description: 'A page of search results, most relevant first, with counts over the whole result' })
export class ArticleSearchConnection implements ArticleSearchShape {
  @Field(() => [ArticleSearchEdge], { description: 'The results of this page, most relevant first; at most `first`' })
  edges!: ArticleSearchEdge[];

  @Field(() => PageInfo, { description: 'Whether more results follow, and the cursors to page on from' })
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'Number of results across all pages' })
  totalCount!: Promise<number>;

  @Field(() => ArticleSearchFacets, { description: 'Facet counts over every result, not only this page' })
  facets!: Promise<ArticleSearchFacets>;
}
