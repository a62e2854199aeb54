// GET /cms/product/categories (docs/api.md): the shim's query schema, the ProductCategory
// component for the answer; public and cacheable.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PRODUCT_CATEGORIES_PATH } from '../../rest/product-categories.route.js';
import { productCategoriesQuery } from '../../rest/product-categories.schema.js';
import { productCategory } from '../components/catalogue.js';
import { badRequest, jsonResponse, serverProblems, unauthorized } from '../responses.js';
import { optionalBearer } from '../security.js';
import { z } from '../zod.js';
import { conditionalRequestHeaders, notModified } from './cacheable.js';
import { toOpenApiPath } from './params.js';

export function registerCataloguePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: toOpenApiPath(PRODUCT_CATEGORIES_PATH),
    operationId: 'listProductCategories',
    tags: ['Catalogue'],
    summary: 'List product categories',
    description:
      "Categories in tree order (each parent before its children), with breadcrumbs from the root and, unless `includeProducts=false`, the first `productsLimit` of their available products with each product's items; `totalProductsCount` counts them all. Paged by `page` and `limit`: the body is the page's array, `X-Total-Count` says how many categories match and `Link` points to the `next` and `prev` pages. Names and descriptions follow `lang` with a fallback to the default language. Anonymous callers are welcome; a presented token must be valid. Unknown or repeated query parameters are a 400.",
    security: optionalBearer,
    request: { query: productCategoriesQuery, headers: conditionalRequestHeaders },
    responses: {
      200: jsonResponse('List of categories', z.array(productCategory), {
        headers: { ETag: 'ETag', 'Cache-Control': 'CacheControl', Link: 'PageLinks', 'X-Total-Count': 'TotalCount' },
      }),
      304: notModified,
      400: badRequest(
        'An unknown, repeated or invalid query parameter, or `page`, `limit` or `productsLimit` out of range or not a whole number',
      ),
      401: unauthorized('A token was presented and is not valid'),
      ...serverProblems(),
    },
  });
}
