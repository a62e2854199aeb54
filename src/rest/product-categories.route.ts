// GET /cms/product/categories (docs/api.md): a thin shim over the category page operation, shaped by
// product-categories.present.ts; paged by `Link` and `X-Total-Count`, the body an array; public and
// cacheable (ETag, 304, Cache-Control by whether a token was presented).
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { sendCacheableJson } from '../cache/cacheable.js';
import { listProductCategoryPage } from '../operations/catalogue/list-product-category-page.js';
import { parseOr400 } from '../validation.js';
import { pageLinks } from './page-links.js';
import { restCategoryPage } from './product-categories.present.js';
import { productCategoriesQuery } from './product-categories.schema.js';

export const PRODUCT_CATEGORIES_PATH = '/cms/product/categories';

export function registerProductCategoryRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(PRODUCT_CATEGORIES_PATH, withContext(deps), async (ctx) => {
    const context = ctx.state.context!;
    const query = parseOr400(productCategoriesQuery, ctx.query, 'query');
    const found = await listProductCategoryPage(context, {
      parentId: query.parentId,
      featured: query.featured,
      available: query.available,
      lang: query.lang ?? null,
      page: query.page,
      limit: query.limit,
      productsLimit: query.includeProducts ? query.productsLimit : null,
    });
    const link = pageLinks(ctx as unknown as Koa.Context, query.page, Math.ceil(found.total / query.limit));
    if (link) ctx.set('Link', link);
    ctx.set('X-Total-Count', String(found.total));
    sendCacheableJson(ctx as unknown as Koa.Context, restCategoryPage(found), {
      authenticated: context.authenticated,
      maxAgeSeconds: context.config.cache.maxAge,
    });
  });
}
