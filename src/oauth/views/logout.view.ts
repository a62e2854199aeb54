// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): the provider's confirmation page and
// its "signed out" page, in the look of the other pages. The provider builds the form (with its xsrf
// field); the buttons submit it by id.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, page, PAGE_CSP } from './layout.js';

export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.type = 'html';
  const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  ctx.body = page(
    'Sign out',
    `<h1>Sign out${client ? ` of ${escapeHtml(client)}` : ''}?</h1>
<p>This ends your sign-in on this browser and the access of the applications you signed in to from it.</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>`,
  );
}

export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.type = 'html';
  ctx.body = page('Signed out', '<h1>You are signed out</h1><p>You can close this window.</p>');
}
