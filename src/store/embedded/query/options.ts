// mingo configuration shared by every query, update and aggregation. The default `mingo` entry point
// registers all operators; this module only adds per-call options (collation, variables, $lookup source).
import type { AnyObject, CollationSpec, Options } from 'mingo/types';
import type { Document } from 'bson';

export interface QueryExtras {
  collation?: Document;
  variables?: Document;
  collectionResolver?: (name: string) => AnyObject[];
}

export function mingoOptions(extra: QueryExtras = {}): Partial<Options> {
  const c = extra.collation;
  const collation = c && typeof c.locale === 'string' && c.locale !== 'simple' ? (c as CollationSpec) : undefined;
  return {
    useStrictMode: true,
    ...(collation ? { collation } : {}),
    ...(extra.variables ? { variables: extra.variables } : {}),
    ...(extra.collectionResolver ? { collectionResolver: extra.collectionResolver } : {}),
  };
}
