// RFC 8288 `Link` to the next and previous pages of a paged REST list: the same path and query, only `page`
// changed, as relative references (resolved against the request's own URL).
import type Koa from 'koa';

/** The header's value, or null when there is neither a next nor a previous page. */
export function pageLinks(ctx: Koa.Context, page: number, totalPages: number): string | null {
  const link = (target: number, rel: string): string => {
    const query = new URLSearchParams(ctx.querystring);
    query.set('page', String(target));
    return `<${ctx.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(page < totalPages ? [link(page + 1, 'next')] : []),
    // Past the end, back to the last page there is.
    ...(page > 1 ? [link(Math.min(page - 1, Math.max(totalPages, 1)), 'prev')] : []),
  ];
  return links.length ? links.join(', ') : null;
}
