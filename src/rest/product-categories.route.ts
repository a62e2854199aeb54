// GET /cms/product/categories (docs/api.md): a thin shim over the category page operations, shaped by
// product-categories.present.ts; paged by `Link` and `X-Total-Count`, the body an array; public and
// cacheable (ETag, 304, Cache-Control by whether a token was presented). Each category's representation is kept
// as ready bytes (src/cache/ready-parts.ts) and the page assembled from them: only the categories of the page
// without one have their breadcrumbs, count, products and items read and shaped.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { sendCacheableJson } from '../cache/cacheable.js';
import type { ReadyParts, Shows } from '../cache/ready-parts.js';
import {
  listedCategories,
  productCategoryPage,
  type ListedCategory,
} from '../operations/catalogue/list-product-category-page.js';
import { parseOr400 } from '../validation.js';
import { pageLinks } from './page-links.js';
import { jsonArray, restCategoryBytes } from './product-categories.present.js';
import { productCategoriesQuery } from './product-categories.schema.js';

export const PRODUCT_CATEGORIES_PATH = '/cms/product/categories';

/**
 * What a category's representation shows: itself and its ancestors (breadcrumbs) by id; which products it lists
 * and counts is a query's answer, and a deleted product's event does not say which category it left, so any
 * write to products (and, when they are embedded, to items) can change it.
 */
function shownBy(listed: ListedCategory): Shows[] {
  const { category } = listed;
  const shows: Shows[] = [
    { collection: 'productCategories', ids: [category.id, ...category.ancestorIds] },
    { collection: 'products' },
  ];
  if (listed.products) shows.push({ collection: 'productItems' });
  return shows;
}

export function registerProductCategoryRoutes(router: Router<AppState>, deps: AppDeps, ready: ReadyParts): void {
  router.get(PRODUCT_CATEGORIES_PATH, withContext(deps), async (ctx) => {
    const context = ctx.state.context!;
    const query = parseOr400(productCategoriesQuery, ctx.query, 'query');
    const lang = query.lang ?? null;
    const productsLimit = query.includeProducts ? query.productsLimit : null;
    // Before any read: a change reported from here on may concern what is read below.
    const mark = ready.mark();
    const found = await productCategoryPage(context, {
      parentId: query.parentId,
      featured: query.featured,
      available: query.available,
      lang,
      page: query.page,
      limit: query.limit,
    });
    const keyOf = (id: string) => `category\u0000${id}\u0000${lang ?? ''}\u0000${productsLimit ?? ''}`;
    const parts = found.categories.map((category) => ready.get(keyOf(category.id)));
    const missing = found.categories.filter((_, i) => parts[i] === undefined);
    const listed = await listedCategories(context, missing, productsLimit);
    const made = new Map<string, Buffer>();
    for (const one of listed) {
      const bytes = restCategoryBytes(one);
      made.set(one.category.id, bytes);
      ready.keep(keyOf(one.category.id), bytes, shownBy(one), mark);
    }
    const body = jsonArray(found.categories.map((category, i) => parts[i] ?? made.get(category.id)!));

    const link = pageLinks(ctx as unknown as Koa.Context, query.page, Math.ceil(found.total / query.limit));
    if (link) ctx.set('Link', link);
    ctx.set('X-Total-Count', String(found.total));
    sendCacheableJson(ctx as unknown as Koa.Context, body, {
      authenticated: context.authenticated,
      maxAgeSeconds: context.config.cache.maxAge,
    });
  });
}
