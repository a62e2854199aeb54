// Collation (MongoDB's ICU collation, strengths 1-3) through Intl.Collator. Matching works on collation
// keys: strings folded so that binary equality of keys is equality under the collation (strength 1 drops
// case and accents, 2 drops case, 3 keeps both); ordering uses the collator's compare. MongoDB's locale
// names (en_US, de@collation=phonebook) are accepted; a locale Intl does not know is refused as MongoDB does.
import type { Document } from 'bson';
import { CommandError } from '../errors.js';

export interface Collation {
  /** The folded form of a string: equal keys <=> equal under the collation. */
  key(s: string): string;
  compare(a: string, b: string): number;
}

const cache = new Map<string, Collation>();

/** MongoDB's ICU locale name as the BCP 47 tag Intl.Collator takes. */
export function localeTag(locale: string): string {
  return locale.split('@')[0]!.replace(/_/g, '-');
}

function strengthOf(spec: Document): number {
  const s = spec.strength ?? 3;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 1 || s > 5)
    throw new CommandError('BadValue', `Field 'strength' must be an integer 1 through 5. Got: ${String(s)}`);
  return s;
}

/** The collation a command asked for, or undefined for none / `simple` (binary comparison). */
export function collationOf(spec: Document | undefined): Collation | undefined {
  if (!spec || Object.keys(spec).length === 0) return undefined;
  if (typeof spec.locale !== 'string')
    throw new CommandError('FailedToParse', "BSON field 'collation.locale' is missing but a required field");
  if (spec.locale === 'simple') return undefined;
  const id = JSON.stringify(spec);
  let c = cache.get(id);
  if (c) return c;
  const tag = localeTag(spec.locale);
  let supported: string[];
  try {
    supported = Intl.Collator.supportedLocalesOf(tag);
  } catch {
    supported = [];
  }
  if (supported.length === 0 && tag !== 'root')
    throw new CommandError('BadValue', 'Incorrect locale information provided');
  const strength = strengthOf(spec);
  const caseLevel = spec.caseLevel === true;
  const sensitivity =
    strength === 1 ? (caseLevel ? 'case' : 'base') : strength === 2 ? (caseLevel ? 'variant' : 'accent') : 'variant';
  const caseFirst = spec.caseFirst === 'upper' || spec.caseFirst === 'lower' ? spec.caseFirst : 'false';
  const collator = new Intl.Collator(tag === 'root' ? 'und' : tag, {
    sensitivity,
    numeric: spec.numericOrdering === true,
    caseFirst,
    ignorePunctuation: spec.alternate === 'shifted',
  });
  const foldCase = strength < 3 && !caseLevel;
  const foldAccents = strength === 1;
  c = {
    key(s) {
      let k = s.normalize('NFD');
      if (foldAccents) k = k.replace(/\p{M}/gu, '');
      if (foldCase) k = k.toLocaleLowerCase(tag === 'root' ? undefined : tag);
      return k.normalize('NFC');
    },
    compare: (a, b) => collator.compare(a, b),
  };
  cache.set(id, c);
  return c;
}

/** MongoDB's defaults of a collation's options (what listIndexes shows of an index's collation). */
const DEFAULTS: Document = {
  caseLevel: false,
  caseFirst: 'off',
  strength: 3,
  numericOrdering: false,
  alternate: 'non-ignorable',
  maxVariable: 'punct',
  normalization: false,
  backwards: false,
};

/** A collation spec completed with MongoDB's defaults, or undefined for none/simple; validates it. */
export function normalizeCollation(spec: Document | undefined): Document | undefined {
  if (!collationOf(spec)) return undefined;
  const out: Document = { locale: spec!.locale };
  for (const [k, v] of Object.entries(DEFAULTS)) out[k] = spec![k] ?? v;
  for (const k of Object.keys(spec!)) {
    if (!(k in out) && k !== 'version')
      throw new CommandError('FailedToParse', `BSON field 'collation.${k}' is an unknown field.`);
  }
  return out;
}

/** Identity of a collation (two specs with the same identity compare alike), undefined for none/simple. */
export function collationId(spec: Document | undefined): string | undefined {
  const n = normalizeCollation(spec);
  if (!n) return undefined;
  return JSON.stringify({ ...n, locale: localeTag(n.locale as string) });
}

/** True when `v` holds no string: comparisons with it are the same under every collation. */
export function collationFree(v: unknown): boolean {
  if (typeof v === 'string') return false;
  if (Array.isArray(v)) return v.every(collationFree);
  if (isPlain(v)) return Object.values(v).every(collationFree);
  return true;
}

const VERBATIM = new Set([
  '$regex',
  '$options',
  '$type',
  '$exists',
  '$size',
  '$mod',
  '$where',
  '$jsonSchema',
  '$text',
  '$comment',
  '$bitsAllSet',
  '$bitsAnySet',
  '$bitsAllClear',
  '$bitsAnyClear',
]);

function isPlain(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** Every string value in `v` (not field names) replaced by its collation key. */
export function foldValues(v: unknown, c: Collation): unknown {
  if (typeof v === 'string') return c.key(v);
  if (Array.isArray(v)) return v.map((x) => foldValues(x, c));
  if (isPlain(v)) {
    const out: Document = {};
    for (const [k, x] of Object.entries(v)) out[k] = foldValues(x, c);
    return out;
  }
  return v;
}

/** A filter whose string operands are collation keys; operator arguments that are not values stay as given. */
export function foldFilter(filter: Document, c: Collation): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(filter)) {
    if (VERBATIM.has(k) || k === '$expr') out[k] = v;
    else if ((k === '$and' || k === '$or' || k === '$nor') && Array.isArray(v))
      out[k] = v.map((x) => (isPlain(x) ? foldFilter(x, c) : x));
    else if (k === '$elemMatch' || k === '$not') out[k] = isPlain(v) ? foldFilter(v, c) : v;
    else if (isPlain(v)) out[k] = Object.keys(v).some((x) => x.startsWith('$')) ? foldFilter(v, c) : foldValues(v, c);
    else out[k] = foldValues(v, c);
  }
  return out;
}
