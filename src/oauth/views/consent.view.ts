// The consent page: which client asks for which scopes, with allow and deny.
import { escapeHtml, page } from './layout.js';

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are',
  offline_access: 'Stay signed in (keep access while you are away)',
  profile: 'See your name',
  email: 'See your e-mail address',
  cart: 'See and change your shopping carts',
};

export function consentPage(opts: {
  action: string;
  abortAction: string;
  clientName: string;
  scopes: string[];
}): string {
  const items = opts.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('');
  return page(
    'Allow access',
    `<h1>${escapeHtml(opts.clientName)} would like to</h1>
<ul>${items}</ul>
<form method="post" action="${escapeHtml(opts.action)}"><button type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(opts.abortAction)}"><button type="submit" class="secondary">Deny</button></form>`,
  );
}
