// Use case: any Node by its id (Relay Global Object Identification). Ids are the stored ids, unique across the
// Node types (docs/decisions.md, "Relay ids are the stored ids"), so an id is looked up in every type at once: through the request's
// loaders, one store round trip per type whatever the number of ids, with each type's own visibility rules
// (what its entry point would not show is null here too; a cart only for its owner with the `cart` scope).
import type DataLoader from 'dataloader';
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import { tagNode } from '../../schema/types/node.type.js';
import * as catalogue from '../../store/catalogue/catalogue.loaders.js';
import { toCart, toProduct, toProductCategory, toProductItem } from '../../store/catalogue/catalogue.mapper.js';
import { cartProjection } from '../../store/catalogue/catalogue.projections.js';
import * as content from '../../store/content/loaders.js';
import { toArticle } from '../../store/content/mappers/article.mapper.js';
import { toChannel, toLiveBlog, toPoll, toQuiz } from '../../store/content/mappers/elements.mapper.js';
import { toVideo } from '../../store/content/mappers/media.mapper.js';
import { toIssue, toPage } from '../../store/content/mappers/page.mapper.js';
import { toAuthor, toCategory, toKeyword } from '../../store/content/mappers/taxonomy.mapper.js';
import { CART_SCOPE } from '../cart/require-cart-scope.js';
import { answerIsPersonal } from '../../cache/shared-viewer.js';
import { checkId } from '../content/input.js';
import type { Selected } from '../../store/loaders.js';

/** As many ids as a connection page holds. */
const MAX_NODE_IDS = 100;
const CHANNEL_ID = /^[0-9]{1,18}$/;

type Found = object | null;
/** `selectedAs(type)`: what the field asking selects of the objects of that type (read ahead with them). */
type Lookup = (ctx: Context, ids: readonly string[], selectedAs?: SelectedAs) => Promise<Found[]>;
export type SelectedAs = (typeName: string) => Selected;

/** Loads `ids` through a request loader, maps what is there. A failed batch rejects (never silently null). */
async function through<D>(
  loader: DataLoader<string, D | null>,
  ids: readonly string[],
  map: (doc: D) => object | null,
): Promise<Found[]> {
  const docs = await loader.loadMany(ids);
  return docs.map((doc) => {
    if (doc instanceof Error) throw doc;
    return doc ? map(doc) : null;
  });
}

/** Issues are visible while their page is enabled, as `issue(id:)` says. */
const issues: Lookup = async (ctx, ids, selectedAs) => {
  const loader = ctx.loaders.get(content.issueById);
  if (selectedAs) loader.wantAhead(ids, selectedAs('Issue'));
  const docs = await loader.loadMany(ids);
  const pages = ctx.loaders.get(content.pageById);
  return Promise.all(
    docs.map(async (doc) => {
      if (doc instanceof Error) throw doc;
      if (!doc) return null;
      return (await pages.load(doc.pageId))?.enabled ? toIssue(doc) : null;
    }),
  );
};

/**
 * The viewer's own carts, and only with the `cart` scope: anyone else's cart is absent. The carts are looked up
 * by id alone first: when none has any of the ids, the answer is the same for every reader and may be shared
 * (readers with the same entitlements, src/cache/response-cache.ts); only a cart found makes it the viewer's own.
 */
const carts: Lookup = async (ctx, ids) => {
  const viewer = ctx.viewer;
  if (!viewer) return ids.map(() => null);
  const docs = await ctx.store
    .collection('carts')
    .find({ _id: { $in: [...ids] } }, { projection: cartProjection, limit: ids.length, batchSize: ids.length })
    .toArray();
  if (docs.length === 0) return ids.map(() => null);
  answerIsPersonal(ctx.http.shared, 'Cart');
  if (!viewer.scopes.has(CART_SCOPE)) return ids.map(() => null);
  const customerId = viewer.customerId;
  const byId = new Map(docs.filter((d) => d.customerId === customerId).map((d) => [d._id, d]));
  return ids.map((id) => {
    const doc = byId.get(id);
    return doc ? toCart(doc, null) : null;
  });
};

/** Every Node type and how to find its objects; the order settles an id stored in two types (never in ours). */
const NODE_TYPES: ReadonlyArray<readonly [string, Lookup]> = [
  ['Page', (ctx, ids) => through(ctx.loaders.get(content.pageById), ids, (d) => (d.enabled ? toPage(d) : null))],
  ['Issue', issues],
  [
    'Article',
    (ctx, ids, selectedAs) => {
      const loader = ctx.loaders.get(content.articleById);
      if (selectedAs) loader.wantAhead(ids, selectedAs('Article'));
      return through(loader, ids, toArticle);
    },
  ],
  ['ContentCategory', (ctx, ids) => through(ctx.loaders.get(content.categoryById), ids, toCategory)],
  ['Author', (ctx, ids) => through(ctx.loaders.get(content.authorById), ids, toAuthor)],
  ['Keyword', (ctx, ids) => through(ctx.loaders.get(content.keywordById), ids, toKeyword)],
  ['Video', (ctx, ids) => through(ctx.loaders.get(content.videoById), ids, toVideo)],
  ['LiveBlog', (ctx, ids) => through(ctx.loaders.get(content.liveBlogById), ids, toLiveBlog)],
  ['Poll', (ctx, ids) => through(ctx.loaders.get(content.pollById), ids, (d) => toPoll(d, ctx.now))],
  ['Quiz', (ctx, ids) => through(ctx.loaders.get(content.quizById), ids, toQuiz)],
  [
    'Channel',
    async (ctx, ids) => {
      const numeric = ids.filter((id) => CHANNEL_ID.test(id));
      const found = new Map(
        (await through(ctx.loaders.get(content.channelById), numeric, toChannel)).map((c, i) => [numeric[i]!, c]),
      );
      return ids.map((id) => found.get(id) ?? null);
    },
  ],
  ['Product', (ctx, ids) => through(ctx.loaders.get(catalogue.productById), ids, (d) => toProduct(d, null))],
  [
    'ProductItem',
    (ctx, ids) => through(ctx.loaders.get(catalogue.productItemById), ids, (d) => toProductItem(d, null)),
  ],
  [
    'ProductCategory',
    (ctx, ids) => through(ctx.loaders.get(catalogue.categoryById), ids, (d) => toProductCategory(d, null)),
  ],
  ['Cart', carts],
];

/** The objects `ids` stand for, in order; null for an id that no type has (or that the reader may not see). */
export async function getNodes(
  ctx: Context,
  ids: readonly string[],
  field = 'ids',
  selectedAs?: SelectedAs,
): Promise<Array<object | null>> {
  if (ids.length > MAX_NODE_IDS)
    throw badRequest(`${field} may hold at most ${MAX_NODE_IDS} ids`, [{ field, message: 'Too many ids' }]);
  const checked = ids.map((id) => checkId(id, field));
  const unique = [...new Set(checked)];
  const perType = await Promise.all(NODE_TYPES.map(([, lookup]) => lookup(ctx, unique, selectedAs)));
  const byId = new Map<string, object>();
  unique.forEach((id, i) => {
    const t = perType.findIndex((found) => found[i] !== null);
    if (t >= 0) byId.set(id, tagNode(perType[t]![i]!, NODE_TYPES[t]![0]));
  });
  return checked.map((id) => byId.get(id) ?? null);
}

export async function getNode(ctx: Context, id: string, selectedAs?: SelectedAs): Promise<object | null> {
  const [node] = await getNodes(ctx, [id], 'id', selectedAs);
  return node ?? null;
}

/** As many entity references as a supergraph router sends for one fetch (nested lists of a client's answer). */
const MAX_ENTITY_REFERENCES = 1000;
const LOOKUP_BY_TYPE = new Map(NODE_TYPES);

/** Where `reference` (the `index`th) is not a Node type's name and id. */
function badReference(index: number, message: string) {
  return badRequest(`representations[${index}] ${message}`, [{ field: `representations[${index}]`, message }]);
}

/**
 * The objects a supergraph router's entity references stand for (`{ __typename, id }`, Apollo Federation's
 * `_entities`), in order; null where the type has no such object or the reader may not see it. Each type is
 * looked up once with all its ids, through the request's loaders and with the rules of `getNodes`, so a router
 * asking for any number of references of one type costs one store round trip for that type.
 */
export async function getEntities(
  ctx: Context,
  references: readonly unknown[],
  selectedAs?: SelectedAs,
): Promise<Array<object | null>> {
  if (references.length > MAX_ENTITY_REFERENCES)
    throw badRequest(`representations may hold at most ${MAX_ENTITY_REFERENCES} references`, [
      { field: 'representations', message: 'Too many references' },
    ]);
  const idsByType = new Map<string, Set<string>>();
  const parsed = references.map((reference, i) => {
    if (typeof reference !== 'object' || reference === null) throw badReference(i, 'must be an object');
    const { __typename: typeName, id } = reference as Record<string, unknown>;
    if (typeof typeName !== 'string' || !LOOKUP_BY_TYPE.has(typeName))
      throw badReference(i, 'must name a Node type in __typename');
    if (typeof id !== 'string') throw badReference(i, 'must hold the id as a string');
    const checked = checkId(id, `representations[${i}].id`);
    let ids = idsByType.get(typeName);
    if (!ids) idsByType.set(typeName, (ids = new Set()));
    ids.add(checked);
    return { typeName, id: checked };
  });
  const found = new Map<string, Map<string, object | null>>();
  await Promise.all(
    [...idsByType].map(async ([typeName, idSet]) => {
      const ids = [...idSet];
      const objects = await LOOKUP_BY_TYPE.get(typeName)!(ctx, ids, selectedAs);
      found.set(typeName, new Map(ids.map((id, i) => [id, objects[i] ? tagNode(objects[i], typeName) : null])));
    }),
  );
  return parsed.map(({ typeName, id }) => found.get(typeName)?.get(id) ?? null);
}
