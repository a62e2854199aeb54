// How a request asks for a preview (docs/api.md, "Preview"): the names of the header and query parameter, and the
// checks the cache paths make before they look anything up. A preview answer is never stored, and a request that
// asks for one is never given a stored answer: not even when the preview is refused, which must say so (a 4xx).
//
// Answers stored by URL need only the headers checked: a URL carrying the token parameter (however encoded) is a
// preview request every time it is asked, so no answer is ever stored under it. Answers shared by signed-in readers
// are stored under their GraphQL parameters alone, so the parameter must be looked for there too.

/** `Preview: true` with an editor's bearer token: drafts, scheduled and archived articles and issues too. */
export const PREVIEW_HEADER = 'preview';
/** A preview link's token, as a header (what a server-side fetch sends)... */
export const PREVIEW_TOKEN_HEADER = 'preview-token';
/** ...or as a query parameter (what a link carries). */
export const PREVIEW_TOKEN_PARAM = 'previewToken';

/** Whether a request's headers (node's, lower-cased names) ask for a preview in any way, however well or badly. */
export function previewHeaders(headers: Readonly<Record<string, unknown>>): boolean {
  return headers[PREVIEW_HEADER] !== undefined || headers[PREVIEW_TOKEN_HEADER] !== undefined;
}

/** Whether a URL's query (decoded, as the routes read it) carries a preview token. */
export function previewParam(url: string): boolean {
  const at = url.indexOf('?');
  return at >= 0 && new URLSearchParams(url.slice(at + 1)).has(PREVIEW_TOKEN_PARAM);
}
