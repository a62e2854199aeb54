// zod with zod-to-openapi's `.openapi()` method. Modules that name components import `z` from here, so
// the extension has run before any of them builds a schema (ESM evaluates this module first).
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };

/**
 * A named copy of a shim's schema for the document (a component under `name`). The copy only carries
 * metadata; the shim keeps validating with the original. zod 4 gives each schema the methods its type
 * had when the schema was built, so a shim schema built before the extension ran has no `.openapi`:
 * the extension's method is applied to it directly.
 */
export function named<T extends z.ZodType>(schema: T, name: string): T {
  const openapi = (z.ZodType.prototype as unknown as { openapi: (this: T, refId: string) => T }).openapi;
  return openapi.call(schema, name);
}
