// In front of the provider's token endpoint (POST /oauth2/access_token): a JSON body from a legacy
// client is turned into the form body the provider reads, and error answers are given CONTRACT.md §2's
// codes and descriptions (RFC 6749 §5.2 shape). Success bodies pass through untouched.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type Koa from 'koa';
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
    if (ctx.is('application/json') && !(await jsonToForm(ctx))) {
      answer(ctx, 400, { error: 'invalid_request', error_description: INVALID_REQUEST });
      return;
    }
    await runTokenRequest(next);
    const body = ctx.body as Partial<OAuthErrorBody> | undefined;
    if (ctx.status >= 400 && body && typeof body === 'object' && typeof body.error === 'string') {
      const mapped = contractError(ctx.status, body as OAuthErrorBody);
      answer(ctx, mapped.status, mapped.body);
    }
  };
}

/** CONTRACT.md §2: the interface's two failure texts, and the RFC 6749 code each failure deserves. */
export function contractError(status: number, body: OAuthErrorBody): { status: number; body: OAuthErrorBody } {
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
        return { status: 400, body: { error: 'invalid_grant', error_description: INVALID_REQUEST, link_required: true } };
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

/**
 * Reads the JSON body and puts an equivalent urlencoded body in its place, so the provider (which parses
 * the request itself) sees a form post. False when the JSON is not a flat object of scalar fields.
 */
async function jsonToForm(ctx: Koa.Context): Promise<boolean> {
  let raw: string;
  try {
    raw = await readLimited(ctx.req, BODY_LIMIT);
  } catch {
    return false;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') form.append(name, String(value));
    else return false;
  }
  replaceForm(ctx, form);
  return true;
}

/** Puts `form` in place of the request body, as a urlencoded post the provider parses itself. */
export function replaceForm(ctx: Koa.Context, form: URLSearchParams): void {
  const buffer = Buffer.from(form.toString(), 'utf8');
  const headers = { ...ctx.req.headers, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(buffer.length) };
  delete headers['transfer-encoding'];
  const replacement = Object.assign(Readable.from([buffer], { objectMode: false }), {
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

/** The urlencoded body, read within the provider's limit; null when too large or unreadable. */
export async function readForm(ctx: Koa.Context): Promise<URLSearchParams | null> {
  try {
    return new URLSearchParams(await readLimited(ctx.req, BODY_LIMIT));
  } catch {
    return null;
  }
}

async function readLimited(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
