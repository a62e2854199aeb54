// GET /cms/product/categories (CONTRACT.md §4.3): a thin shim over listProductCategories; public and
// cacheable (ETag, 304, Cache-Control by whether a token was presented).
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { sendCacheable } from '../http/cacheable.js';
import { parseOr400 } from '../http/validation.js';
import { listProductCategories } from '../operations/catalogue/list-product-categories.js';
import { restCategory } from './product-categories.present.js';
import { productCategoriesQuery } from './product-categories.schema.js';

export const PRODUCT_CATEGORIES_PATH = '/cms/product/categories';

export function registerProductCategoryRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(PRODUCT_CATEGORIES_PATH, withContext(deps), async (ctx) => {
    const context = ctx.state.context!;
    const query = parseOr400(productCategoriesQuery, ctx.query, 'query');
    const categories = await listProductCategories(context, {
      parentId: query.parentId,
      featured: query.featured,
      available: query.available,
      lang: query.lang ?? null,
    });
    const body = await Promise.all(categories.map((c) => restCategory(context, c, { includeProducts: query.includeProducts })));
    sendCacheable(ctx as unknown as Koa.Context, body, { authenticated: context.authenticated, maxAgeSeconds: context.config.cache.maxAge });
  });
}
