// zod failures as 400 problems with field-level errors (docs/api.md), for every REST shim.
import type { z } from 'zod';
import { badRequest, type FieldProblem } from './errors.js';

export function fieldProblems(error: z.ZodError, prefix?: string): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const base = [...(prefix ? [prefix] : []), ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...base, key].join('.'), message: 'Unknown field' }));
    }
    return [{ field: base.join('.') || (prefix ?? 'body'), message: issue.message }];
  });
}

/** The parsed value, or a 400 naming every bad field (nothing is acted upon). */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'path' | 'arguments',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(`The request ${where} is invalid`, fieldProblems(result.error));
}
