// The page an activation mail links to (GET /newsletter/activate): a confirm button, because mail
// scanners open links and a GET must not activate anything. The form posts to the same path, which runs
// the same operation as the JSON endpoint and shows the outcome.
import { bodyParser } from '@koa/bodyparser';
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { AppError } from '../errors.js';
import { activateSubscription } from '../operations/newsletter/activate.js';
import { activateSubscriptionBody, channelIdSchema } from '../operations/newsletter/input.js';

const ACTIVATION_PAGE_PATH = '/newsletter/activate';

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(ctx: Koa.Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style>
</head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

function fields(source: Record<string, unknown>): { channelId: string; email: string; key: string } | null {
  const channel = channelIdSchema.safeParse(source.channel);
  const rest = activateSubscriptionBody.safeParse({ email: source.email, key: source.key });
  return channel.success && rest.success ? { channelId: channel.data, ...rest.data } : null;
}

export function registerActivationPageRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(ACTIVATION_PAGE_PATH, (ctx) => {
    const input = fields(ctx.query);
    if (!input)
      return page(
        ctx as unknown as Koa.Context,
        400,
        'This link is incomplete',
        '<p>Open the link from the activation mail exactly as it was sent.</p>',
      );
    page(
      ctx as unknown as Koa.Context,
      200,
      'Confirm your subscription',
      `<p>Subscribe <strong>${escape(input.email)}</strong> to this newsletter?</p>
<form method="post"><input type="hidden" name="channel" value="${escape(input.channelId)}"><input type="hidden" name="email" value="${escape(input.email)}">
<input type="hidden" name="key" value="${escape(input.key)}"><button type="submit">Confirm subscription</button></form>`,
    );
  });

  router.post(
    ACTIVATION_PAGE_PATH,
    bodyParser({ enableTypes: ['form'], formLimit: '8kb' }),
    withContext(deps),
    async (ctx) => {
      const input = fields((ctx.request.body ?? {}) as Record<string, unknown>);
      if (!input)
        return page(
          ctx as unknown as Koa.Context,
          400,
          'This link is incomplete',
          '<p>Open the link from the activation mail exactly as it was sent.</p>',
        );
      try {
        const result = await activateSubscription(ctx.state.context!, input);
        if (result.error)
          return page(
            ctx as unknown as Koa.Context,
            200,
            'This link no longer works',
            `<p>${escape(result.message)}. Subscribe again to get a new link.</p>`,
          );
        page(
          ctx as unknown as Koa.Context,
          200,
          'You are subscribed',
          '<p>Thank you: your subscription is active.</p>',
        );
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        page(ctx as unknown as Koa.Context, err.status, err.title, `<p>${escape(err.message)}</p>`);
      }
    },
  );
}
