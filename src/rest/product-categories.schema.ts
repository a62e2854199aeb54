// Query parameters of GET /cms/product/categories (docs/api.md). Unknown or repeated parameters
// are a 400, so a typo (`parent_id`) is reported instead of silently returning everything.
import { z } from 'zod';
import { ID_PATTERN, LANGUAGE_PATTERN } from '../operations/catalogue/catalogue.input.js';

const flag = (description: string) =>
  z
    .enum(['true', 'false'], { message: 'Must be true or false' })
    .transform((v) => v === 'true')
    .describe(description)
    // OpenAPI: a boolean query parameter, serialised as `true` / `false`.
    .meta({ type: 'boolean' });

export const productCategoriesQuery = z.strictObject({
  parentId: z
    .string()
    .refine((v) => v === 'root' || ID_PATTERN.test(v), 'Must be `root` or a category id')
    .optional()
    .describe('Only the children of this category; `root` for the top level. Omit for every level.')
    // OpenAPI: the refine above is invisible to the generator; `root` matches the id pattern too.
    .meta({ pattern: ID_PATTERN.source }),
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
    ),
  includeProducts: flag("Embed each category's available products with their items (default true).")
    .default(true)
    .meta({ default: true }),
});
