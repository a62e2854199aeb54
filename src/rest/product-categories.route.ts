// GET /cms/product/categories (docs/api.md): a thin shim over the category list, written as JSON
// bytes (product-categories.listing.ts); public and cacheable (ETag, 304, Cache-Control by whether a
// token was presented).
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { sendCacheableJson } from '../cache/cacheable.js';
import { parseOr400 } from '../validation.js';
import { productCategoriesJson } from './product-categories.listing.js';
import { productCategoriesQuery } from './product-categories.schema.js';

export const PRODUCT_CATEGORIES_PATH = '/cms/product/categories';

export function registerProductCategoryRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(PRODUCT_CATEGORIES_PATH, withContext(deps), async (ctx) => {
    const context = ctx.state.context!;
    const query = parseOr400(productCategoriesQuery, ctx.query, 'query');
    const json = await productCategoriesJson(context, {
      parentId: query.parentId,
      featured: query.featured,
      available: query.available,
      lang: query.lang ?? null,
      includeProducts: query.includeProducts,
    });
    sendCacheableJson(ctx as unknown as Koa.Context, json, {
      authenticated: context.authenticated,
      maxAgeSeconds: context.config.cache.maxAge,
    });
  });
}
