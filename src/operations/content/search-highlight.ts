// Highlighted snippets of a search hit: the text cut into segments, those holding a word whose stem the query
// looks for marked `match`. Plain text throughout, so a frontend renders the segments (bold, <mark>) without
// injecting markup that came from the store.
import { termOf, WORD } from './search-terms.js';

export interface Segment {
  text: string;
  match: boolean;
}

/** Characters around the first match a long text is cut to; shorter texts are shown whole. */
const SNIPPET = 200;
const ELLIPSIS = '…';

/** `text` as segments, each matching word its own segment, the text between merged. */
export function segments(text: string, terms: ReadonlySet<string>): Segment[] {
  const out: Segment[] = [];
  const plain = (s: string) => {
    if (!s) return;
    const last = out.at(-1);
    if (last && !last.match) last.text += s;
    else out.push({ text: s, match: false });
  };
  let at = 0;
  for (const m of text.matchAll(WORD)) {
    const term = termOf(m[0]);
    if (term === undefined || !terms.has(term)) continue;
    plain(text.slice(at, m.index));
    out.push({ text: m[0], match: true });
    at = m.index + m[0].length;
  }
  plain(text.slice(at));
  return out;
}

/**
 * Up to about SNIPPET characters of `text` as segments: the whole text when it is that short, otherwise a window
 * starting a little before the first match (the start when nothing matches), cut at white space, `…` marking
 * what was left out.
 */
export function snippet(text: string, terms: ReadonlySet<string>): Segment[] {
  const whole = segments(text, terms);
  if (text.length <= SNIPPET) return whole;
  let first = 0;
  for (const s of whole) {
    if (s.match) break;
    first += s.text.length;
  }
  let start = first < SNIPPET / 4 ? 0 : first - SNIPPET / 4;
  if (start > 0) start = wordStart(text, start);
  let end = Math.min(text.length, start + SNIPPET);
  if (end < text.length) end = wordEnd(text, end, first);
  const cut = segments(text.slice(start, end), terms);
  if (start > 0) cut.unshift({ text: ELLIPSIS, match: false });
  if (end < text.length) cut.push({ text: ELLIPSIS, match: false });
  return merged(cut);
}

/** The start of the word at or after `i`. */
function wordStart(text: string, i: number): number {
  const space = text.slice(i).search(/\s/);
  return space < 0 ? i : i + space + 1;
}

/** The end of the last whole word before `i`, never before `floor` (the first match stays in). */
function wordEnd(text: string, i: number, floor: number): number {
  const space = text.lastIndexOf(' ', i);
  return space > floor ? space : i;
}

function merged(list: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of list) {
    const last = out.at(-1);
    if (last && !last.match && !s.match) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
