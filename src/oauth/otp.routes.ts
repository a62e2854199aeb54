// POST /oauth2/otp `{ client_id, username }`: asks for a one-time sign-in code (docs/api.md).
// Always 202 for a well-formed request from a client registered for the otp grant, whether or not the
// address has an account; errors use the token endpoint's RFC 6749 shape.
import { bodyParser } from '@koa/bodyparser';
import { Router } from '@koa/router';
import type Koa from 'koa';
import { findClient } from '../store/oauth/clients.store.js';
import type { Store } from '../store/store.js';
import { OTP_TTL_SECONDS, type OtpService } from './otp.js';
import { INVALID_CLIENT, INVALID_REQUEST } from './token-endpoint.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function otpRoutes(deps: { path: string; store: Store; otp: OtpService }): Router {
  const router = new Router();
  const body = bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: '16kb',
    formLimit: '16kb',
    // An unreadable body is answered below as a missing field; one over the limit as 413 (docs/api.md).
    onError: (err, ctx) => {
      ctx.state.bodyTooLarge = (err as { status?: number }).status === 413;
    },
  });
  router.post(deps.path, body, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (ctx.state.bodyTooLarge) return fail(ctx as unknown as Koa.Context, 413, 'invalid_request', INVALID_REQUEST);
    const input = (ctx.request.body ?? {}) as Record<string, unknown>;
    const clientId = input.client_id;
    const username = input.username;
    if (typeof clientId !== 'string' || typeof username !== 'string' || !EMAIL.test(username.trim())) {
      return fail(ctx as unknown as Koa.Context, 400, 'invalid_request', INVALID_REQUEST);
    }
    const client = await findClient(deps.store, clientId);
    if (!client) return fail(ctx as unknown as Koa.Context, 401, 'invalid_client', INVALID_CLIENT);
    if (!client.grantTypes.includes('otp'))
      return fail(ctx as unknown as Koa.Context, 400, 'unauthorized_client', INVALID_CLIENT);
    const retryAfter = await deps.otp.request(clientId, username, ctx.ip);
    if (retryAfter) {
      ctx.set('Retry-After', String(retryAfter));
      return fail(
        ctx as unknown as Koa.Context,
        429,
        'temporarily_unavailable',
        'Too many code requests; try again later',
      );
    }
    ctx.status = 202;
    ctx.body = { expires_in: OTP_TTL_SECONDS };
  });
  return router;
}

function fail(ctx: Koa.Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.body = { error, error_description: description };
}
