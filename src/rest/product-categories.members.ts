// The mapper's expressions (spreads, `localise`, keyed translations, amounts in minor units) written as JSON
// bytes from BSON elements, so that product-categories.bytes.ts writes each mapped member the mapper's way.
import { DEFAULT_LANGUAGE } from '../store/catalogue/catalogue.mapper.js';
import {
  eachItem,
  eachMember,
  isAbsent,
  isArray,
  isDocument,
  isNonEmptyString,
  isNullish,
  memberOf,
  numberAt,
  Unusual,
  type Element,
} from './bson-elements.js';
import { writeSpread, writeValue } from './bson-json.js';
import { JsonOut, keyBytes } from './json-out.js';
import { I, P } from './product-categories.raw.js';

/** `"key":` for every key the writer emits. */
export const K = Object.fromEntries(
  [
    ...Object.keys(P),
    ...Object.keys(I),
    'id',
    'productItems',
    'label1',
    'label2',
    'label3',
    'productDetails',
    'productName',
    'itemIds',
    'web',
    'mobile',
    'compareAt',
    'recurrentPrice',
    'recurrentSchedule',
  ].map((k) => [k, keyBytes(k)]),
) as Record<string, Buffer>;
/** Stored field names looked up inside sub-documents. */
export const NAME = Object.fromEntries(
  [
    'description',
    'label1',
    'label2',
    'label3',
    'name',
    'subtitle',
    'web',
    'mobile',
    'compareAt',
    'itemIds',
    'recurrentPrice',
  ].map((k) => [k, Buffer.from(k)]),
) as Record<string, Buffer>;

/** Members of one JSON object, commas between them; an undefined value leaves its key out as JSON.stringify does. */
export class Members {
  private first = true;
  constructor(private readonly out: JsonOut) {}

  key(key: Buffer): JsonOut {
    if (!this.first) this.out.byte(0x2c);
    this.first = false;
    this.out.bytes(key);
    return this.out;
  }

  /** A stored value as it is. */
  copy(key: Buffer, buf: Buffer, e: Element): void {
    if (!isAbsent(e)) writeValue(this.key(key), buf, e);
  }

  /** A computed value. */
  value(key: Buffer, value: unknown): void {
    if (value !== undefined) this.key(key).json(value);
  }
}

/** Amounts in minor units: a number, or undefined / null as stored; anything else is Unusual. */
export function minor(buf: Buffer, e: Element): number | null | undefined {
  if (isAbsent(e)) return undefined;
  if (isNullish(e)) return null;
  const n = numberAt(buf, e);
  if (n === undefined) throw new Unusual('an amount that is not a number');
  return n;
}

/** `doc.x ? { ...doc.x } : null` */
export function nullOrSpread(m: Members, key: Buffer, buf: Buffer, e: Element): void {
  if (isNullish(e)) return m.value(key, null);
  writeSpread(m.key(key), buf, e);
}

/** `doc.list.map((x) => ({ ...x }))` */
export function spreadEach(out: JsonOut, buf: Buffer, e: Element): void {
  if (!isArray(e)) throw new Unusual('a list that is not an array');
  out.byte(0x5b);
  eachItem(buf, e, (x, n) => {
    if (n) out.byte(0x2c);
    writeSpread(out, buf, x);
  });
  out.byte(0x5d);
}

/** `localise(base, translations, lang, field)` of the mapper. */
export function localised(
  m: Members,
  key: Buffer,
  buf: Buffer,
  base: Element,
  translationsOf: Element,
  lang: string | null,
  field: Buffer,
): void {
  if (!lang || lang === DEFAULT_LANGUAGE) return m.copy(key, buf, base);
  if (!isDocument(translationsOf)) throw new Unusual('translations that are not a document');
  const t = memberOf(buf, translationsOf, languageKey(lang));
  if (!isNullish(t)) {
    if (!isDocument(t)) throw new Unusual('a translation that is not a document');
    const value = memberOf(buf, t, field);
    if (isNonEmptyString(buf, value)) return m.copy(key, buf, value);
  }
  m.copy(key, buf, base);
}

const languageKeys = new Map<string, Buffer>();
const languageKey = (lang: string): Buffer => {
  let key = languageKeys.get(lang);
  if (!key) languageKeys.set(lang, (key = Buffer.from(lang)));
  return key;
};

/** `keyed(entries(translations).map(([language, t]) => ({ language, a: t.a ?? null, ... })))` */
export function translations(out: JsonOut, buf: Buffer, e: Element, fields: string[]): void {
  if (!isDocument(e)) throw new Unusual('translations that are not a document');
  const languages: Array<[string, Element]> = [];
  eachMember(buf, e, (language, t) => languages.push([language, t]));
  languages.sort(([a], [b]) => (a < b ? -1 : 1));
  const m = new Members(out.opened(0x7b));
  for (const [language, t] of languages) {
    if (!isDocument(t)) throw new Unusual('a translation that is not a document');
    const tm = new Members(m.key(keyBytes(language)).opened(0x7b));
    for (const field of fields) {
      const value = memberOf(buf, t, NAME[field]!);
      if (isNullish(value)) tm.value(K[field]!, null);
      else tm.copy(K[field]!, buf, value);
    }
    out.byte(0x7d);
  }
  out.byte(0x7d);
}
