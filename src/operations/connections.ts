// Every connection the API pages, with the sort its cursors carry and the type of each sort key: what a cursor
// is bound to and checked against (src/cursors/codec.ts).
import type { Context } from '../context.js';
import type { Binding, ConnectionKind } from '../cursors/codec.js';
import { productOrder } from '../store/catalogue/catalogue.loaders.js';
import { articleOrder, issueOrder } from '../store/content/connections.js';
import type { Position, SortSpec } from '../store/content/paging.js';
import { searchOrder } from '../store/content/search.js';

/** Enabled pages by name. */
const pageOrder: SortSpec = [
  ['name', 1],
  ['_id', 1],
];

const articles = (name: string): ConnectionKind => ({ name, sort: articleOrder, types: ['date?', 'string'] });

export const connections = {
  pages: { name: 'Query.pages', sort: pageOrder, types: ['string', 'string'] },
  articles: articles('Query.articles'),
  searchArticles: { name: 'Query.searchArticles', sort: searchOrder, types: ['number', 'date?', 'string'] },
  pageIssues: { name: 'Page.issues', sort: issueOrder, types: ['date', 'int', 'string'] },
  categoryArticles: articles('ContentCategory.articles'),
  authorArticles: articles('Author.articles'),
  keywordArticles: articles('Keyword.articles'),
  categoryProducts: { name: 'ProductCategory.products', sort: productOrder, types: ['number', 'string'] },
} satisfies Record<string, ConnectionKind>;

/** One connection's cursors, bound to the request's codec. */
export interface ConnectionCursors {
  sort: SortSpec;
  decode(after: string | null | undefined): Position | null;
  encode(position: Position): string;
}

export function cursorsOf(
  ctx: Context,
  kind: ConnectionKind,
  parent?: string,
  args?: Binding['args'],
): ConnectionCursors {
  const binding: Binding = { kind, parent, args };
  return {
    sort: kind.sort,
    decode: (after) => ctx.cursors.decode(binding, after),
    encode: (position) => ctx.cursors.encode(binding, position),
  };
}
