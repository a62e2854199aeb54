// What the benchmark asks: the documents and paths of every scenario, in one place.

/** The page whose issues every content scenario reads (enabled, ~300 published issues at medium scale). */
const PAGE_ID = 'page-1';
/** Issues per answer of the nested query (each has ~12 articles in its contents). */
const NESTED_FIRST = 5;
/** Issues per page of the REST list (each issue carries ~25 articles in their full representation). */
export const REST_LIMIT = 2;

/** page -> issues -> contents -> articles -> authors, categories, keywords. */
export const NESTED_QUERY = `query Nested($id: ID!, $first: Int!) {
  page(id: $id) {
    id
    name
    issues(first: $first) {
      totalCount
      edges {
        node {
          id
          title
          date
          issueNumber
          contents {
            categoryId
            category { id name slug }
            articles {
              id
              title
              slug
              firstPublishedDate
              premium
              summary
              authors { id name slug }
              categories { id name slug }
              keywords { id name slug }
            }
          }
        }
      }
    }
  }
}`;

export const NESTED_VARIABLES = { id: PAGE_ID, first: NESTED_FIRST };

/** The smallest useful read: one article's title (what the per-request overhead of the stack costs). */
export const SMALL_QUERY = 'query Small($id: ID!) { article(id: $id) { id title } }';
export const smallPostBody = (id: string): string => JSON.stringify({ query: SMALL_QUERY, variables: { id } });
/**
 * How many different articles the small query asks for, one after the other on every connection: concurrent
 * readers of one service rarely want the same article at the same moment, and the gateway sends the reads of
 * requests that arrive together as one command (src/store/shared-reads.ts), which the same id every time would
 * flatter (one key read for fifty requests).
 */
export const SMALL_IDS = 1000;

export const nestedPostBody = JSON.stringify({ query: NESTED_QUERY, variables: NESTED_VARIABLES });

/** The same operation as a GET (what the response cache can serve); Apollo wants the preflight header. */
export const nestedGetPath = `/graphql?${new URLSearchParams({ query: NESTED_QUERY, variables: JSON.stringify(NESTED_VARIABLES) }).toString()}`;
export const graphqlGetHeaders = { 'apollo-require-preflight': 'true', accept: 'application/json' };

export const restListPath = `/cms/page/${PAGE_ID}/issues?limit=${REST_LIMIT}`;
/**
 * The top level of the product catalogue (a shop's navigation): root categories with breadcrumbs and
 * product counts. With the default `includeProducts=true` every category embeds every product filed under
 * it with all their items: at medium scale the roots alone carry all 2,400 products (0.7 MB), and the
 * whole tree several MB, a bulk export rather than a request a shop makes under load.
 */
export const categoriesPath = '/cms/product/categories?parentId=root&includeProducts=false';

const PRODUCT_ITEM_QUERY = `query Item($id: ID!) {
  productItem(id: $id) {
    id name subtitle description productId productName price currency available order shippable weight
    oncePerUser isUpgrade sku stockEnabled stockAvailable packageQuantity
    prices { web mobile compareAt }
    settings { recurrent recurrentPrice recurrentSchedule }
    images { url width height alt }
    translations { language name subtitle }
  }
}`;

/** The lookup of one item (the run picks the first available item of the seeded catalogue). */
export const productItemBody = (id: string): string => JSON.stringify({ query: PRODUCT_ITEM_QUERY, variables: { id } });

/** A GraphQL answer without errors and with data. */
export function graphqlProblem(status: number, body: string): string | null {
  if (status !== 200) return `status ${status}: ${body.slice(0, 300)}`;
  if (!body.startsWith('{"data":{') || body.includes('"errors":[')) return `errors or no data: ${body.slice(0, 300)}`;
  return null;
}

/** One answer of the gateway, as the ceiling replays it. */
export interface RecordedAnswer {
  method: string;
  /** Path and query exactly as requested. */
  url: string;
  status: number;
  /** Header name/value pairs as the gateway sent them (minus per-delivery ones). */
  headers: Array<[string, string]>;
  bodyBase64: string;
}

/** Headers that belong to one connection or one moment, not to the answer. */
export const PER_DELIVERY = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
