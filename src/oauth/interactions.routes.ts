// The provider's interaction routes (/oauth2/interaction/:uid): the server-rendered sign-in and consent
// pages of the authorization-code flow, and their form posts. These routes are ours, not the provider's,
// so the form body parser here is never in front of the provider.
import { bodyParser } from '@koa/bodyparser';
import { Router } from '@koa/router';
import type Koa from 'koa';
import type { Interaction, Provider } from 'oidc-provider';
import { errors } from './oidc.js';
import type { PasswordLogin } from './password-login.js';
import { consentPage } from './views/consent.view.js';
import { errorPage } from './views/error.view.js';
import { PAGE_CSP } from './views/layout.js';
import { loginPage } from './views/login.view.js';

export interface InteractionDeps {
  provider: Provider;
  logins: PasswordLogin;
  /** Path the routes live under, e.g. `/oauth2/interaction`. */
  base: string;
}

/** The device token of sign-in-limits.ts, as a cookie of the sign-in pages. */
const DEVICE_COOKIE = 'oauth_device';
const DEVICE_COOKIE_DAYS = 365;

const formBody = () => bodyParser({ enableTypes: ['form'], formLimit: '16kb' });

export function interactionRoutes(deps: InteractionDeps): Router {
  const { provider, base } = deps;
  const router = new Router({ prefix: base });

  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', PAGE_CSP);
    try {
      await next();
    } catch (err) {
      if (!(err instanceof errors.SessionNotFound)) throw err;
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = errorPage('invalid_request', 'This sign-in has expired or was already completed.');
    }
  });

  /** The interaction behind the cookie, which must be the one in the URL. */
  const details = async (ctx: Koa.Context, expectedPrompt?: string): Promise<Interaction> => {
    const interaction = await provider.interactionDetails(ctx.req, ctx.res);
    if (interaction.uid !== ctx.params.uid || (expectedPrompt && interaction.prompt.name !== expectedPrompt)) {
      throw new errors.SessionNotFound('interaction mismatch');
    }
    return interaction;
  };
  const clientName = async (interaction: Interaction): Promise<string> => {
    const client = await provider.Client.find(interaction.params.client_id);
    return client?.clientName ?? interaction.params.client_id;
  };
  const finish = async (ctx: Koa.Context, result: Record<string, unknown>, merge: boolean): Promise<void> => {
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
    ctx.redirect(returnTo);
    ctx.status = 303;
  };
  const paths = (uid: string) => ({
    login: `${base}/${uid}/login`,
    confirm: `${base}/${uid}/confirm`,
    abort: `${base}/${uid}/abort`,
  });

  router.get('/:uid', async (ctx) => {
    const interaction = await details(ctx as unknown as Koa.Context);
    const name = await clientName(interaction);
    const to = paths(interaction.uid);
    ctx.type = 'html';
    if (interaction.prompt.name === 'login') {
      ctx.body = loginPage({ action: to.login, clientName: name });
    } else if (interaction.prompt.name === 'consent') {
      const scopes = String(interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean);
      ctx.body = consentPage({ action: to.confirm, abortAction: to.abort, clientName: name, scopes });
    } else {
      throw new errors.SessionNotFound(`unsupported prompt ${interaction.prompt.name}`);
    }
  });

  router.post('/:uid/login', formBody(), async (ctx) => {
    const interaction = await details(ctx as unknown as Koa.Context, 'login');
    const form = (ctx.request.body ?? {}) as Record<string, unknown>;
    const email = typeof form.email === 'string' ? form.email : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const action = paths(interaction.uid).login;
    ctx.type = 'html';
    if (!email || !password || email.length > 320 || password.length > 1024) {
      ctx.status = 400;
      ctx.body = loginPage({
        action,
        clientName: await clientName(interaction),
        email,
        error: 'Enter your e-mail and password.',
      });
      return;
    }
    const outcome = await deps.logins.check(email, password, ctx.ip, ctx.cookies.get(DEVICE_COOKIE));
    if (outcome.ok) {
      // This browser is now a known device for the account: other people's failures do not lock it out.
      ctx.cookies.set(DEVICE_COOKIE, outcome.deviceToken, {
        httpOnly: true,
        sameSite: 'lax',
        path: base,
        maxAge: DEVICE_COOKIE_DAYS * 86_400_000,
        secure: ctx.secure,
        signed: false,
      });
      await finish(ctx as unknown as Koa.Context, { login: { accountId: outcome.customer._id, amr: ['pwd'] } }, false);
      return;
    }
    if (outcome.retryAfter) {
      ctx.status = 429;
      ctx.set('Retry-After', String(outcome.retryAfter));
    }
    const error = outcome.retryAfter ? 'Too many failed attempts. Try again later.' : 'Wrong e-mail or password.';
    ctx.body = loginPage({ action, clientName: await clientName(interaction), email, error });
  });

  router.post('/:uid/confirm', async (ctx) => {
    const interaction = await details(ctx as unknown as Koa.Context, 'consent');
    const missing = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId: interaction.session!.accountId, clientId: interaction.params.client_id });
    if (!grant) throw new errors.SessionNotFound('grant not found');
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await finish(ctx as unknown as Koa.Context, { consent: interaction.grantId ? {} : { grantId } }, true);
  });

  router.post('/:uid/abort', async (ctx) => {
    await details(ctx as unknown as Koa.Context);
    await finish(
      ctx as unknown as Koa.Context,
      { error: 'access_denied', error_description: 'The user did not allow access' },
      false,
    );
  });

  return router;
}
