// Query parameters of GET /cms/product/categories (docs/api.md). Unknown or repeated parameters
// are a 400, so a typo (`parent_id`) is reported instead of silently returning everything.
import { z } from 'zod';
import { CATEGORY_PAGING, ID_PATTERN, LANGUAGE_PATTERN } from '../operations/catalogue/catalogue.input.js';

const flag = (description: string) =>
  z
    .enum(['true', 'false'], { message: 'Must be true or false' })
    .transform((v) => v === 'true')
    .describe(description)
    // OpenAPI: a boolean query parameter, serialised as `true` / `false`.
    .meta({ type: 'boolean' });

/** A whole number from 1 to `max` in the query string, `fallback` when absent. */
const positiveInt = (max: number, fallback: number, example: number, description: string) =>
  z
    .string()
    .regex(/^[0-9]{1,7}$/, 'Must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'Must be at least 1').max(max, `Must be at most ${max}`))
    .default(fallback)
    .describe(description)
    // OpenAPI: a whole number in the query string (the document describes the value, not its string form).
    .meta({ type: 'integer', minimum: 1, maximum: max, default: fallback, example });

const { limit, productsLimit, maxPage } = CATEGORY_PAGING;

export const productCategoriesQuery = z.strictObject({
  parentId: z
    .string()
    .refine((v) => v === 'root' || ID_PATTERN.test(v), 'Must be `root` or a category id')
    .optional()
    .describe('Only the children of this category; `root` for the top level. Omit for every level.')
    // OpenAPI: the refine above is invisible to the generator; `root` matches the id pattern too.
    .meta({ pattern: ID_PATTERN.source, example: 'root' }),
  featured: flag('Only featured (true) or only non-featured (false) categories. Omit for both.').optional(),
  available: flag('Available (true, the default) or unavailable (false) categories.')
    .default(true)
    .meta({ default: true }),
  lang: z
    .string()
    .regex(LANGUAGE_PATTERN, 'Must be an ISO 639-1 code such as de')
    .optional()
    .describe(
      'ISO 639-1 code: names, subtitles and descriptions in this language, falling back to the default language (en).',
    )
    .meta({ example: 'de' }),
  includeProducts: flag("Embed each category's available products with their items (default true).")
    .default(true)
    .meta({ default: true }),
  page: positiveInt(maxPage, 1, 1, 'Page of categories to return, 1-based (default 1).'),
  limit: positiveInt(
    limit.max,
    limit.default,
    limit.default,
    `Categories per page, 1 to ${limit.max} (default ${limit.default}).`,
  ),
  productsLimit: positiveInt(
    productsLimit.max,
    productsLimit.default,
    5,
    `Products embedded per category, 1 to ${productsLimit.max} (default ${productsLimit.default}), the first in listing order; \`totalProductsCount\` still counts them all.`,
  ),
});
