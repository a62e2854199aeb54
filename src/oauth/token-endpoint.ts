// In front of the provider's token endpoint (POST /oauth2/access_token): a JSON body from a legacy
// client is turned into the form body the provider reads, and error answers are given the API's
// codes and fixed descriptions (RFC 6749 §5.2 shape; docs/api.md). Success bodies pass through untouched.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import getRawBody from 'raw-body';
import { LINK_REQUIRED } from './grants/grant-errors.js';
import { runTokenRequest } from './token-request.js';

export const INVALID_REQUEST = 'Invalid request or authorization code';
export const INVALID_CLIENT = 'Invalid client credentials or unauthorized request';

/** The provider's own body limit for form posts. */
const BODY_LIMIT = 56 * 1024;

interface OAuthErrorBody {
  error: string;
  error_description?: string;
  /** Third-party sign-in into an existing password account: send its password or a one-time code. */
  link_required?: true;
}

export function tokenEndpoint(path: string): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path || ctx.method !== 'POST') return next();
    const json = ctx.is('application/json');
    if (json || ctx.is('application/x-www-form-urlencoded')) {
      // Read here rather than by the provider, so that a body over the limit is a 413 (docs/api.md) and
      // its connection stays usable for the client's next request.
      const raw = await readBody(ctx.req, BODY_LIMIT);
      if (raw === TOO_LARGE || raw === UNREADABLE) {
        answer(ctx, raw === TOO_LARGE ? 413 : 400, { error: 'invalid_request', error_description: INVALID_REQUEST });
        return;
      }
      const form = json ? jsonToForm(raw.toString('utf8')) : raw;
      if (!form) {
        answer(ctx, 400, { error: 'invalid_request', error_description: INVALID_REQUEST });
        return;
      }
      replaceBody(
        ctx,
        form instanceof URLSearchParams ? Buffer.from(form.toString(), 'utf8') : form,
        json ? 'application/x-www-form-urlencoded' : ctx.get('content-type'),
      );
    }
    await runTokenRequest(next);
    const body = ctx.body as Partial<OAuthErrorBody> | undefined;
    if (ctx.status >= 400 && body && typeof body === 'object' && typeof body.error === 'string') {
      const mapped = contractError(ctx.status, body as OAuthErrorBody);
      answer(ctx, mapped.status, mapped.body);
    }
  };
}

/**
 * The API's status rules (docs/api.md) for the authorization server's POST-only endpoints (token, introspection, revocation, otp):
 * another method is 405 with `Allow: POST` (OPTIONS goes on, for CORS), a body in another media type or with a
 * content coding is 415, each in the RFC 6749 §5.2 error shape. The provider itself answers 404 and 400.
 */
export function postOnlyEndpoints(routes: Array<{ path: string; types: string[] }>): Koa.Middleware {
  const byPath = new Map(routes.map((r) => [r.path, r.types]));
  return async (ctx, next) => {
    const types = byPath.get(ctx.path);
    if (!types || (ctx.method === 'POST' && acceptable(ctx, types))) return next();
    if (ctx.method === 'OPTIONS') return next();
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      answer(ctx, 405, { error: 'invalid_request', error_description: INVALID_REQUEST });
      return;
    }
    // RFC 9110 §15.5.16: a refused content coding is answered with the codings accepted.
    if (coded(ctx)) ctx.set('Accept-Encoding', 'identity');
    answer(ctx, 415, { error: 'invalid_request', error_description: INVALID_REQUEST });
  };
}

/** A body this endpoint can read: one of its media types, or no body at all; and no content coding. */
function acceptable(ctx: Koa.Context, types: string[]): boolean {
  if (coded(ctx)) return false;
  if (ctx.request.type) return ctx.is(types) !== false;
  // No media type: acceptable only without a body (the provider then says what is missing).
  return !ctx.get('transfer-encoding') && Number(ctx.get('content-length') || 0) === 0;
}

function coded(ctx: Koa.Context): boolean {
  const coding = ctx.get('content-encoding').trim().toLowerCase();
  return coding !== '' && coding !== 'identity';
}

/** The token endpoint's two fixed failure texts (docs/api.md), and the RFC 6749 code each failure deserves. */
function contractError(status: number, body: OAuthErrorBody): { status: number; body: OAuthErrorBody } {
  switch (body.error) {
    case 'invalid_client':
      return { status: 401, body: { error: 'invalid_client', error_description: INVALID_CLIENT } };
    case 'unauthorized_client':
      return { status: 400, body: { error: 'unauthorized_client', error_description: INVALID_CLIENT } };
    case 'invalid_request':
      // The provider says invalid_request where RFC 6749 §5.2 says unauthorized_client.
      if (body.error_description === 'requested grant type is not allowed for this client') {
        return { status: 400, body: { error: 'unauthorized_client', error_description: INVALID_CLIENT } };
      }
      return { status: 400, body: { error: 'invalid_request', error_description: INVALID_REQUEST } };
    case 'invalid_grant':
      if (body.error_description === LINK_REQUIRED) {
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: INVALID_REQUEST, link_required: true },
        };
      }
      return { status: 400, body: { error: body.error, error_description: INVALID_REQUEST } };
    case 'unsupported_grant_type':
    case 'invalid_scope':
    case 'invalid_target':
      return { status: 400, body: { error: body.error, error_description: INVALID_REQUEST } };
    default:
      // temporarily_unavailable (429) and server_error keep what they said.
      return { status, body };
  }
}

function answer(ctx: Koa.Context, status: number, body: OAuthErrorBody): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

/** A JSON body from a legacy client as the equivalent form; null when it is not a flat object of scalar fields. */
function jsonToForm(raw: string): URLSearchParams | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      form.append(name, String(value));
    else return null;
  }
  return form;
}

/** Puts `form` in place of the request body, as a urlencoded post the provider parses itself. */
export function replaceForm(ctx: Koa.Context, form: URLSearchParams): void {
  replaceBody(ctx, Buffer.from(form.toString(), 'utf8'), 'application/x-www-form-urlencoded');
}

/** Puts `bytes` in place of the request body (already read), for the provider to parse itself. */
function replaceBody(ctx: Koa.Context, bytes: Buffer, contentType: string): void {
  const headers = { ...ctx.req.headers, 'content-type': contentType, 'content-length': String(bytes.length) };
  delete headers['transfer-encoding'];
  const replacement = Object.assign(Readable.from([bytes], { objectMode: false }), {
    headers,
    method: ctx.req.method,
    url: ctx.req.url,
    httpVersion: ctx.req.httpVersion,
    socket: ctx.req.socket,
    connection: ctx.req.socket,
  }) as unknown as IncomingMessage;
  ctx.req = replacement;
  ctx.request.req = replacement;
}

export type FormRead = URLSearchParams | typeof TOO_LARGE | typeof UNREADABLE;

/** The urlencoded body, read within the provider's limit. */
export async function readForm(ctx: Koa.Context): Promise<FormRead> {
  const raw = await readBody(ctx.req, BODY_LIMIT);
  return raw === TOO_LARGE || raw === UNREADABLE ? raw : new URLSearchParams(raw.toString('utf8'));
}

export const TOO_LARGE = Symbol('request body too large');
export const UNREADABLE = Symbol('request body unreadable');

/**
 * The request body within `limit` bytes, through raw-body (as the JSON routes' body parser reads): past the
 * limit it stops and leaves the rest unread, which Node discards once the answer is sent, so the connection
 * carries the client's next request. (Breaking out of the stream instead destroyed the socket: the next
 * request a client sent on that kept-alive connection failed with ECONNRESET.)
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE | typeof UNREADABLE> {
  try {
    return await getRawBody(req, { limit, length: req.headers['content-length'] });
  } catch (err) {
    return (err as { type?: string }).type === 'entity.too.large' ? TOO_LARGE : UNREADABLE;
  }
}
