// The provider's error rendering: a page for the browser-facing routes, RFC 6749 JSON everywhere else
// (the token endpoint in particular answers JSON whatever the Accept header says).
import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, page, PAGE_CSP } from './layout.js';

const BROWSER_ROUTES = new Set(['authorization', 'resume', 'end_session', 'end_session_confirm']);

export async function renderError(
  ctx: KoaContextWithOIDC,
  out: { error?: string; error_description?: string },
): Promise<void> {
  if (!BROWSER_ROUTES.has(ctx.oidc?.route ?? '')) {
    ctx.type = 'application/json';
    ctx.body = out;
    return;
  }
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.body = errorPage(out.error ?? 'server_error', out.error_description);
}

export function errorPage(error: string, description?: string): string {
  return page(
    'Something went wrong',
    `<h1>Sign-in could not continue</h1>
<p class="error">${escapeHtml(description ?? 'The request could not be completed.')}</p>
<p><small>${escapeHtml(error)}</small></p>
<p>Go back to the application and start again.</p>`,
  );
}
