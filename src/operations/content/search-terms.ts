// The words of search text as the text index sees them (MongoDB's analysis for English, the articles' language):
// cut at white space, dashes, quotation marks and punctuation (an apostrophe stays inside a word), lower-cased,
// stop words dropped, stemmed with the Snowball English stemmer, diacritics removed. Used to check a query's size
// and to mark the words of a title or summary that matched it.
import { stopwords } from '@orama/stopwords/english';
import snowball from 'snowball-stemmers';

const DELIMITERS =
  '\\p{White_Space}\\p{Dash}\\p{Quotation_Mark}\\p{Terminal_Punctuation}\\p{Pattern_Syntax}\\p{Sentence_Terminal}';
/** Each word of a text, apostrophes inside it, with where it starts. */
export const WORD = new RegExp(`(?:[^${DELIMITERS}]|')+`, 'gu');

const stemmer = snowball.newStemmer('english');
const stopWords: ReadonlySet<string> = new Set(stopwords);

const stripDiacritics = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** Terms of words seen (null: a stop word): the stemmer costs microseconds a word, and highlights of titles and
 *  summaries meet the same words again and again. Forgotten all at once past a bound. */
const remembered = new Map<string, string | null>();
const REMEMBERED = 100_000;

/** A word as an index term; undefined for a stop word, which the index leaves out. */
export function termOf(word: string): string | undefined {
  let term = remembered.get(word);
  if (term === undefined) {
    const low = word.toLowerCase();
    term = stopWords.has(low) ? null : stripDiacritics(stemmer.stem(low));
    if (remembered.size >= REMEMBERED) remembered.clear();
    remembered.set(word, term);
  }
  return term ?? undefined;
}

/**
 * The terms a text query looks for: its words, also those of quoted phrases, but none after a `-` (negated words
 * and phrases exclude articles, so no shown article holds them).
 */
export function queryTerms(query: string): Set<string> {
  const terms = new Set<string>();
  // A quoted phrase, or a run of characters up to white space or a quote; a leading dash negates either.
  for (const [, dash, phrase, word] of query.matchAll(/(-?)(?:"([^"]*)"?|([^\s"]+))/g)) {
    if (dash) continue;
    for (const w of (phrase ?? word ?? '').match(WORD) ?? []) {
      const term = termOf(w);
      if (term) terms.add(term);
    }
  }
  return terms;
}

/** How many words the text holds, stop words included: what the length limit of a query counts. */
export const wordCount = (text: string): number => text.match(WORD)?.length ?? 0;
