// mingo configuration shared by every query, update and aggregation. The default `mingo` entry point
// registers all operators; this module only adds per-call options (collation, variables, $lookup source).
import { Aggregator } from './mingo.js';
import type { AnyObject, CollationSpec, Options } from 'mingo/types';
import type { Document } from 'bson';
import { collationOf, localeTag } from '../collation/index.js';

export interface QueryExtras {
  collation?: Document;
  variables?: Document;
  collectionResolver?: (name: string) => AnyObject[];
}

/** A collation mingo applies (for sorting), or undefined for none/simple; validates the spec. */
export function effectiveCollation(c: Document | undefined): CollationSpec | undefined {
  if (!collationOf(c)) return undefined;
  return { ...(c as CollationSpec), locale: localeTag(c!.locale as string) };
}

/**
 * A command's `let` values are expressions (`{$literal: '$x'}` is the string '$x', `{$rand: {}}` a number),
 * evaluated once against an empty document before the command runs.
 */
export function evaluateLet(vars: Document | undefined): Document | undefined {
  if (!vars || Object.keys(vars).length === 0) return vars;
  const names = Object.keys(vars);
  const set = Object.fromEntries(names.map((n, i) => [`v${i}`, vars[n]]));
  const [row] = new Aggregator([{ $replaceWith: set }], { useStrictMode: true }).run([{}]) as Document[];
  return Object.fromEntries(names.map((n, i) => [n, row![`v${i}`]]));
}

export function mingoOptions(extra: QueryExtras = {}): Partial<Options> {
  const collation = effectiveCollation(extra.collation);
  return {
    useStrictMode: true,
    ...(collation ? { collation } : {}),
    ...(extra.variables ? { variables: extra.variables } : {}),
    ...(extra.collectionResolver ? { collectionResolver: extra.collectionResolver } : {}),
  };
}
