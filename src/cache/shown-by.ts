// Which GraphQL types can show the data of each collection: a write to the collection may change every cached
// answer whose operation selects one of them (src/cache/invalidation.ts evicts those). Conservative on
// purpose: a type that embeds, lists or counts a collection's documents is named with it, and so is the Node
// interface for every collection behind `node`/`nodes`. `satisfies Record<CollectionName, ...>` makes the
// compiler ask for an entry whenever a collection is declared; `[]` says no cached answer shows it.
import type { CollectionName } from '../store/collections.js';

/** Types that show articles, directly or embedded (issue contents, pages, front page, related items, lists). */
const CONTENT = [
  'Node',
  'Article',
  'ArticleConnection',
  'ArticleEdge',
  'ArticleElements',
  'ArticleGroup',
  'ArticleSearchConnection',
  'ArticleSearchEdge',
  'ArticleSearchFacets',
  'ArticleSearchHighlights',
  'AuthorFacet',
  'CategoryFacet',
  'KeywordFacet',
  'TextSegment',
  'YearFacet',
  'Attachment',
  'Author',
  'Breadcrumb',
  'ContentCategory',
  'ContentType',
  'DynamicSection',
  'FrontPage',
  'Issue',
  'IssueConnection',
  'IssueContent',
  'IssueEdge',
  'Keyword',
  'Linkable',
  'LinkableList',
  'Page',
  'PageConnection',
  'PageEdge',
  'PageMetadata',
  'RelatedItems',
  'Seo',
  'Sponsor',
  'Video',
  'CategoryType',
  'CategorySetting',
  'CategoryTranslation',
  'KeywordTranslation',
  'PdfFile',
  'ImageTransform',
  'TransformUrl',
];
/** Article elements with data of their own; articles embed them. */
const ELEMENTS = [
  'Node',
  'Article',
  'ArticleElements',
  'LiveBlog',
  'LiveBlogMessage',
  'LiveBlogEvent',
  'Poll',
  'PollCategory',
  'PollChoice',
  'PollResult',
  'Quiz',
  'QuizAnswer',
  'QuizQuestion',
  'QuizResult',
];
/** The catalogue: products, their items and categories, and the prices computed from them. */
const CATALOGUE = [
  'Node',
  'Product',
  'ProductConnection',
  'ProductEdge',
  'ProductDetails',
  'ProductSettings',
  'ProductTranslatedText',
  'ProductItem',
  'ProductItemFields',
  'ProductItemPrices',
  'ProductItemSettings',
  'ProductItemTranslation',
  'ProductCategory',
  'Brand',
  'ItemFile',
  'ItemImage',
  'Installments',
  'PriceLine',
  'PriceMatrix',
  'RelatedItems',
];
/** Evicts every cached answer (a channel's configuration shapes everything a channel serves). */
export const EVERYTHING = '*';

/**
 * Whether a live blog is open to a reader is worked out from the articles that carry it
 * (src/operations/live/live-blog-access.ts): a write to an article can change a live blog read through `node`.
 */
const CARRIED = ['LiveBlog', 'LiveBlogMessage', 'LiveBlogEvent'];

export const SHOWN_BY = {
  articles: [...CONTENT, ...CARRIED],
  contentTypes: CONTENT,
  sponsors: CONTENT,
  contentCategories: CONTENT,
  categoryTypes: CONTENT,
  authors: CONTENT,
  keywords: CONTENT,
  videos: CONTENT,
  pages: CONTENT,
  issues: CONTENT,
  channels: [EVERYTHING],
  liveBlogs: ELEMENTS,
  liveBlogMessages: ELEMENTS,
  polls: ELEMENTS,
  pollVotes: ELEMENTS,
  quizzes: ELEMENTS,
  productCategories: CATALOGUE,
  products: CATALOGUE,
  productItems: CATALOGUE,
  coupons: [...CATALOGUE, 'Cart', 'CartCoupon'],
  // `node(id:)` answers a signed-in reader shares when no cart has the id (src/operations/node/node.ts): a cart
  // written with that id must evict them (only shared answers: anonymous ones never look carts up, SHARED_ONLY).
  carts: ['Cart'],
  // Per-viewer or internal data: no cached answer shows it (viewers are never cached; shared answers are keyed
  // by entitlement set, so a customer's change of entitlements picks another entry).
  customers: [],
  settings: [],
  outbox: [],
  live_limits: [],
  newsletterSubscriptions: [],
  newsletter_limits: [],
  oauth_models: [],
  clients: [],
  otp_codes: [],
  login_failures: [],
  oauth_revocations: [],
  trustedDocuments: [],
  webhookEndpoints: [],
  webhookDeliveries: [],
  publicationTransitions: [],
  previewLinks: [],
} satisfies Record<CollectionName, readonly string[]>;

/** Collections whose writes change only answers shared among signed-in readers (never an anonymous one). */
export const SHARED_ONLY: ReadonlySet<string> = new Set<CollectionName>(['carts']);

/** The collections a cached answer can show (the change stream watches these). */
export const SHOWN_COLLECTIONS: string[] = Object.entries(SHOWN_BY)
  .filter(([, types]) => types.length > 0)
  .map(([name]) => name);

/** REST answers cached by route (their operations are not on /graphql): the types each shows. */
export const REST_SHOWS: { prefix: string; types: readonly string[] }[] = [
  { prefix: '/cms/product/', types: CATALOGUE },
  { prefix: '/cms/', types: CONTENT },
];
