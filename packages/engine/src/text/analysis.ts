// Text analysis as MongoDB's text indexes do it (text index version 3): a string is cut into words at Unicode
// delimiters (white space, dashes, quotation marks, terminal punctuation and pattern syntax; in English the
// apostrophe is part of a word), each word is lower-cased, dropped if it is a stop word of the language,
// stemmed with the language's Snowball stemmer, then stripped of diacritics. A document's string fields give
// each term a score (scoreDocument): per string, the sum over the term's occurrences of 1, 1/2, 1/4…, times
// (0.5 × occurrences / words + 0.5), times 1.1 when the whole string is that one word, times the field's
// weight; scores of a term in several strings add up. A query's score for a document is the sum of the
// scores of its terms that the document holds.
import type { Document } from 'bson';
import snowball from 'snowball-stemmers';
import { stopwords as danish } from '@orama/stopwords/danish';
import { stopwords as dutch } from '@orama/stopwords/dutch';
import { stopwords as english } from '@orama/stopwords/english';
import { stopwords as finnish } from '@orama/stopwords/finnish';
import { stopwords as french } from '@orama/stopwords/french';
import { stopwords as german } from '@orama/stopwords/german';
import { stopwords as hungarian } from '@orama/stopwords/hungarian';
import { stopwords as italian } from '@orama/stopwords/italian';
import { stopwords as norwegian } from '@orama/stopwords/norwegian';
import { stopwords as portuguese } from '@orama/stopwords/portuguese';
import { stopwords as romanian } from '@orama/stopwords/romanian';
import { stopwords as russian } from '@orama/stopwords/russian';
import { stopwords as spanish } from '@orama/stopwords/spanish';
import { stopwords as swedish } from '@orama/stopwords/swedish';
import { stopwords as turkish } from '@orama/stopwords/turkish';
import { CommandError } from '../errors.js';

/** A language of MongoDB's text search: its stemmer and stop words ('none': neither). */
export interface Language {
  name: string;
  stem: (word: string) => string;
  /** A word of a document as the index holds it (`term` with stop words dropped, case and diacritics folded;
   *  undefined for a stop word), remembered: every indexed word of every document goes through it. */
  indexTerm: (word: string) => string | undefined;
  stopWords: ReadonlySet<string>;
  /** Apostrophes belong to words (English only). */
  apostrophes: boolean;
  turkish: boolean;
}

const LISTS: Record<string, { code: string; words: string[] }> = {
  danish: { code: 'da', words: danish },
  dutch: { code: 'nl', words: dutch },
  english: { code: 'en', words: english },
  finnish: { code: 'fi', words: finnish },
  french: { code: 'fr', words: french },
  german: { code: 'de', words: german },
  hungarian: { code: 'hu', words: hungarian },
  italian: { code: 'it', words: italian },
  norwegian: { code: 'nb', words: norwegian },
  portuguese: { code: 'pt', words: portuguese },
  romanian: { code: 'ro', words: romanian },
  russian: { code: 'ru', words: russian },
  spanish: { code: 'es', words: spanish },
  swedish: { code: 'sv', words: swedish },
  turkish: { code: 'tr', words: turkish },
};

const languages = new Map<string, Language>();

/** Words whose analysis a language remembers: the Snowball port takes 20–400 µs a word, and prose repeats its
 *  words (a newspaper's 30,000 most frequent words are most of its text). */
const MEMO_SIZE = 100_000;

/**
 * `fn` remembering its answers for the last MEMO_SIZE to MEMO_SIZE × 2 distinct arguments: answers are kept in
 * a young and an old generation; when the young one is full it becomes the old one, and an answer found in the
 * old one moves back to the young. Frequent words stay; a burst of rare ones (names, typos) evicts only rare ones.
 */
function memo<T>(fn: (w: string) => T): (w: string) => T {
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  return (w) => {
    if (young.has(w)) return young.get(w)!;
    const v = old.has(w) ? old.get(w)! : fn(w);
    if (young.size >= MEMO_SIZE) {
      old = young;
      young = new Map();
    }
    young.set(w, v);
    return v;
  };
}

function make(name: string): Language {
  const list = LISTS[name];
  const stemmer = list && snowball.newStemmer(name);
  const lang: Language = {
    name,
    stem: stemmer ? (w) => stemmer.stem(w) : (w) => w,
    indexTerm: () => undefined,
    stopWords: new Set(list?.words),
    apostrophes: name === 'english',
    turkish: name === 'turkish',
  };
  lang.indexTerm = memo((w) => term(w, lang, INDEXING));
  return lang;
}

/** The language named `raw` (a name or ISO 639-1 code, any case), or undefined when MongoDB has no such one. */
export function findLanguage(raw: unknown): Language | undefined {
  if (typeof raw !== 'string') return undefined;
  let name = raw.toLowerCase();
  if (name !== 'none' && !LISTS[name]) {
    const byCode = Object.entries(LISTS).find(([, l]) => l.code === name);
    if (!byCode) return undefined;
    name = byCode[0];
  }
  let lang = languages.get(name);
  if (!lang) languages.set(name, (lang = make(name)));
  return lang;
}

/** The language, or BadValue as MongoDB answers an unsupported one. */
export function language(raw: unknown): Language {
  const lang = findLanguage(raw);
  if (!lang) throw new CommandError('BadValue', `unsupported language: "${String(raw)}" for text index version 3`);
  return lang;
}

const DELIMITERS =
  '\\p{White_Space}\\p{Dash}\\p{Quotation_Mark}\\p{Terminal_Punctuation}\\p{Pattern_Syntax}\\p{Sentence_Terminal}';
const WORDS = new RegExp(`[^${DELIMITERS}]+`, 'gu');
const ENGLISH_WORDS = new RegExp(`(?:[^${DELIMITERS}]|')+`, 'gu');

/** Words of `text` in order, as written. */
export function words(text: string, lang: Language): string[] {
  return text.match(lang.apostrophes ? ENGLISH_WORDS : WORDS) ?? [];
}

export interface TokenOptions {
  stopWords?: boolean;
  caseSensitive?: boolean;
  diacriticSensitive?: boolean;
}

/** How a document's words are read into an index. */
const INDEXING: TokenOptions = { stopWords: true };

const lower = (w: string, lang: Language): string => (lang.turkish ? w.toLocaleLowerCase('tr') : w.toLowerCase());

/** Strips diacritics (combining marks after canonical decomposition). */
export function stripDiacritics(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  return s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** One word as a term: stop words (when filtered) give undefined. */
export function term(word: string, lang: Language, opts: TokenOptions = {}): string | undefined {
  const low = lower(word, lang);
  if (opts.stopWords && lang.stopWords.has(low)) return undefined;
  const stemmed = lang.stem(opts.caseSensitive ? word : low);
  return opts.diacriticSensitive ? stemmed : stripDiacritics(stemmed);
}

/** The terms of a string, in order (repeated ones repeated). */
export function terms(text: string, lang: Language, opts: TokenOptions = {}): string[] {
  const out: string[] = [];
  for (const w of words(text, lang)) {
    const t = term(w, lang, opts);
    if (t !== undefined) out.push(t);
  }
  return out;
}

interface TermCount {
  count: number;
  freq: number;
  exp: number;
}

/** What a text index is told by its spec. */
export interface TextSpec {
  /** Field path -> weight; '$**' for every string field. */
  weights: Record<string, number>;
  defaultLanguage: string;
  languageOverride: string;
}

/** A string a text index reads, with the language and weight it is read under. */
export interface TextValue {
  text: string;
  lang: Language;
  weight: number;
}

/** The language a (sub)document asks for with the override field, else `current`. */
function languageOf(doc: Document, spec: TextSpec, current: Language): Language {
  const raw: unknown = doc[spec.languageOverride];
  if (raw === undefined) return current;
  if (typeof raw !== 'string')
    throw new CommandError('Location17261', 'found language override field in document with non-string type');
  const lang = findLanguage(raw);
  if (!lang) throw new CommandError('Location17262', `language override unsupported: ${raw}`);
  return lang;
}

const isDoc = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v as { _bsontype?: string })._bsontype;

/** The strings of `doc` a text index reads: the weighted fields (every string with '$**'), array elements each. */
export function* textValues(doc: Document, spec: TextSpec): Generator<TextValue> {
  const wildcard = '$**' in spec.weights;
  const paths = Object.keys(spec.weights);
  const weightOf = (path: string): number | undefined => spec.weights[path] ?? (wildcard ? 1 : undefined);
  const descend = (path: string): boolean => wildcard || paths.some((p) => p.startsWith(path + '.'));
  function* walk(obj: Document, prefix: string, lang: Language): Generator<TextValue> {
    const here = languageOf(obj, spec, lang);
    for (const [key, value] of Object.entries(obj)) {
      if (wildcard && key === spec.languageOverride) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      yield* values(value, path, here);
    }
  }
  function* values(value: unknown, path: string, lang: Language): Generator<TextValue> {
    if (typeof value === 'string') {
      const weight = weightOf(path);
      if (weight !== undefined) yield { text: value, lang, weight };
    } else if (Array.isArray(value)) {
      for (const v of value) if (!Array.isArray(v)) yield* values(v, path, lang);
    } else if (isDoc(value) && descend(path)) yield* walk(value, path, lang);
  }
  yield* walk(doc, '', language(spec.defaultLanguage));
}

/** Term -> score of a document in a text index. */
export function scoreDocument(doc: Document, spec: TextSpec): Map<string, number> {
  const scores = new Map<string, number>();
  for (const { text, lang, weight } of textValues(doc, spec)) {
    const counts = new Map<string, TermCount>();
    let n = 0;
    for (const w of words(text, lang)) {
      const t = lang.indexTerm(w);
      if (t === undefined) continue;
      let c = counts.get(t);
      if (!c) counts.set(t, (c = { count: 0, freq: 0, exp: 0 }));
      c.exp = c.exp ? c.exp * 2 : 1;
      c.count++;
      c.freq += 1 / c.exp;
      n++;
    }
    for (const [t, c] of counts) {
      const coeff = (0.5 * c.count) / n + 0.5;
      const adjustment = text.length === t.length && text.toLowerCase() === t ? 1.1 : 1;
      scores.set(t, (scores.get(t) ?? 0) + weight * c.freq * coeff * adjustment);
    }
  }
  return scores;
}
