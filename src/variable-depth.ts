// How deep a request's variables may nest: refused by the GraphQL layer (graphql/limits.ts) and never made into a
// key by the response cache's shared answers. Imports nothing, so the cache can use it without the GraphQL layer.

/**
 * Variables nested deeper than this are refused (400): no input type of the schema comes near it, and a value
 * nested some thousands of levels deep (a few kilobytes of brackets) overflows the stack of whatever serialises
 * or walks it recursively (graphql/limits.ts's cost key, the shared answers' key).
 */
export const MAX_VARIABLE_DEPTH = 64;

/** Whether `value` holds arrays or objects nested more than `max` levels deep; looks no deeper than that. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value))
    if (nestedDeeperThan(item, max - 1)) return true;
  return false;
}
