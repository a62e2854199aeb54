// The sign-in page of the authorization-code flow: e-mail and password, posted back to the interaction.
import { escapeHtml, page } from './layout.js';

export function loginPage(opts: { action: string; clientName: string; email?: string; error?: string }): string {
  return page(
    'Sign in',
    `<h1>Sign in to continue to ${escapeHtml(opts.clientName)}</h1>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}" autocomplete="on">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" required autofocus value="${escapeHtml(opts.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in</button>
</form>`,
  );
}
