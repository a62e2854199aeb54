// RFC 7662 and RFC 7009 for JWT access tokens. The provider refuses structured tokens at its
// introspection and revocation endpoints ("cannot be introspected"), yet keeps a record of each one under
// its jti (provider.ts, recordAccessToken). In front of both endpoints, this middleware verifies a JWT
// access token against the server's own keys and hands the provider its jti instead; the provider then
// authenticates the client and answers as for any token: `active` truthfully, revocation of the
// caller's own tokens only. A JWT that does not verify becomes a value no token has (inactive; revoking
// it is a no-op 200, as RFC 7009 §2.2 wants for invalid tokens).
import { decodeProtectedHeader } from 'jose';
import type Koa from 'koa';
import { readForm, replaceForm, TOO_LARGE, UNREADABLE } from './token-endpoint.js';

const NO_SUCH_TOKEN = 'unverifiable-structured-token';

export function structuredTokenParam(
  paths: string[],
  verify: (jwt: string) => Promise<{ jti?: unknown }>,
): Koa.Middleware {
  const routes = new Set(paths);
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !routes.has(ctx.path) || !ctx.is('application/x-www-form-urlencoded')) return next();
    const form = await readForm(ctx);
    if (form === TOO_LARGE || form === UNREADABLE) {
      ctx.status = form === TOO_LARGE ? 413 : 400;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        error: 'invalid_request',
        error_description: form === TOO_LARGE ? 'request body too large' : 'request body unreadable',
      };
      return;
    }
    const tokens = form.getAll('token');
    if (tokens.length === 1 && isJwt(tokens[0]!)) {
      let jti: unknown;
      try {
        ({ jti } = await verify(tokens[0]!));
      } catch {
        jti = undefined;
      }
      form.set('token', typeof jti === 'string' && jti ? jti : NO_SUCH_TOKEN);
      form.delete('token_type_hint');
      form.set('token_type_hint', 'access_token');
    }
    replaceForm(ctx, form);
    return next();
  };
}

function isJwt(value: string): boolean {
  try {
    return Boolean(decodeProtectedHeader(value));
  } catch {
    return false;
  }
}
