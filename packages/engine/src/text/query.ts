// A `$text` query as MongoDB reads it: `$search` is cut at white space into words, quoted phrases and
// negations. A '-' right after white space (or at the start) negates what follows up to the next white space:
// a word, several joined by dashes ("-foo-bar" negates both), or a phrase; a '-' inside a word only joins it.
// Words of phrases are searched like other words; a document must also contain every phrase (a substring
// match, case and diacritics folded unless asked otherwise) and none of the negated words or phrases. The
// index is searched for the positive terms (stop words dropped, stemmed, case and diacritics folded); with
// `$caseSensitive` or `$diacriticSensitive` the document's own words are checked again under those rules.
import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import { language, stripDiacritics, term, terms, textValues, words, type Language, type TextSpec } from './analysis.js';

export interface TextQuery {
  search: string;
  lang: Language;
  caseSensitive: boolean;
  diacriticSensitive: boolean;
  /** Terms looked up in the index (folded). */
  bounds: Set<string>;
  /** Terms a document must hold one of, and may hold none of, under the query's sensitivity. */
  positive: Set<string>;
  negated: Set<string>;
  phrases: string[];
  negatedPhrases: string[];
}

function bool(v: unknown, name: string): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new CommandError('TypeMismatch', `$text ${name} requires a boolean value`);
  return v;
}

/** Parses a `$text` operand; `defaultLanguage`: the text index's. */
export function parseTextQuery(raw: unknown, defaultLanguage: string): TextQuery {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CommandError('BadValue', '$text expects an object');
  const spec = raw as Document;
  for (const k of Object.keys(spec)) {
    if (!['$search', '$language', '$caseSensitive', '$diacriticSensitive'].includes(k))
      throw new CommandError('BadValue', `Unexpected field in $text: ${k}`);
  }
  if (typeof spec.$search !== 'string') throw new CommandError('TypeMismatch', '$search requires a string value');
  if (spec.$language !== undefined && typeof spec.$language !== 'string')
    throw new CommandError('TypeMismatch', '$language requires a string value');
  const search = spec.$search;
  const q: TextQuery = {
    search,
    lang: language(spec.$language ?? defaultLanguage),
    caseSensitive: bool(spec.$caseSensitive, '$caseSensitive'),
    diacriticSensitive: bool(spec.$diacriticSensitive, '$diacriticSensitive'),
    bounds: new Set(),
    positive: new Set(),
    negated: new Set(),
    phrases: [],
    negatedPhrases: [],
  };
  let positive = '';
  let negative = '';
  let inNegation = false;
  let inPhrase = false;
  let quoteAt = 0;
  // Tokens: runs of text, and the delimiters '-' and '"', each knowing whether white space came before it.
  const re = /(\s*)(-|"|[^\s"-]+)/gy;
  let first = true;
  for (let m = re.exec(search); m; m = re.exec(search)) {
    const white = first || m[1]!.length > 0;
    first = false;
    const t = m[2]!;
    if (t === '-') {
      if (!inPhrase && white) inNegation = true;
    } else if (t === '"') {
      const at = m.index + m[1]!.length;
      if (inPhrase) {
        (inNegation ? q.negatedPhrases : q.phrases).push(search.slice(quoteAt + 1, at));
        inPhrase = false;
      } else {
        inPhrase = true;
        if (inNegation && white) inNegation = false;
        quoteAt = at;
      }
    } else if (!(inPhrase && inNegation)) {
      if (inNegation && white) inNegation = false;
      if (inNegation) negative += t + ' ';
      else positive += t + ' ';
    }
  }
  const folded = { stopWords: true };
  for (const t of terms(positive, q.lang, folded)) q.bounds.add(t);
  const sensitive = { stopWords: true, caseSensitive: q.caseSensitive, diacriticSensitive: q.diacriticSensitive };
  for (const t of terms(positive, q.lang, sensitive)) q.positive.add(t);
  for (const t of terms(negative, q.lang, sensitive)) q.negated.add(t);
  return q;
}

/** Whether `text` contains `phrase` under the query's case and diacritic rules. */
function phraseIn(phrase: string, text: string, q: TextQuery): boolean {
  const fold = (s: string): string => {
    const c = q.caseSensitive ? s : s.toLowerCase();
    return q.diacriticSensitive ? c : stripDiacritics(c);
  };
  return fold(text).includes(fold(phrase));
}

/** Whether a document found through the index's terms matches the whole query (MongoDB's FTSMatcher). */
export function textMatches(doc: Document, spec: TextSpec, q: TextQuery): boolean {
  const values = [...textValues(doc, spec)];
  const opts = { caseSensitive: q.caseSensitive, diacriticSensitive: q.diacriticSensitive };
  const has = (set: Set<string>): boolean =>
    values.some(({ text, lang }) => words(text, lang).some((w) => set.has(term(w, lang, opts)!)));
  // Case and diacritic folded terms are what the index was searched for: a candidate holds one already.
  if ((q.caseSensitive || q.diacriticSensitive) && !has(q.positive)) return false;
  if (q.negated.size > 0 && has(q.negated)) return false;
  for (const p of q.phrases) if (!values.some(({ text }) => phraseIn(p, text, q))) return false;
  for (const p of q.negatedPhrases) if (values.some(({ text }) => phraseIn(p, text, q))) return false;
  return true;
}
