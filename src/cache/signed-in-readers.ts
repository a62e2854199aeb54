// What the response cache needs to answer a signed-in reader: the key of a shared answer, and for the fast
// path before Koa the bearer check (remembered per token for a few seconds) and the GraphQL request's
// parameters (from the URL, or from a JSON body looked at and left on the stream for Koa).
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Viewer } from '../viewer.js';
import { MAX_VARIABLE_DEPTH, nestedDeeperThan } from '../variable-depth.js';

/**
 * How long a checked token's viewer (and with it the customer's entitlements) is reused by the fast path. A
 * shared answer is sent `private, max-age=60`, so a browser may already show it that long after a change of
 * entitlements; a few seconds here add nothing a reader could not see anyway, and spare each cached read a
 * signature check and a store round trip. Never past the token's own expiry.
 */
const VIEWER_REUSE_MS = 5_000;

/** The app's bearer check (src/http/authenticate.ts): the viewer of a token, null for none; throws for a bad one. */
export type BearerCheck = (authorization: string) => Promise<Viewer | null>;

interface Remembered {
  viewer: Viewer;
  until: number;
}

/** The bearer check of the app, remembered per exact Authorization header. Failures are never remembered. */
export class ViewerMemo {
  private readonly viewers = new LRUCache<string, Remembered>({ max: 50_000 });
  /** Counts `forget` calls: a check that began before one may have accepted a token revoked since. */
  private forgotten = 0;

  constructor(private readonly authenticate: BearerCheck) {}

  /** The viewer of a valid token, or undefined: no token, a bad one (Koa's chain answers 401), or an error. */
  async viewerOf(authorization: string, now: number): Promise<Viewer | undefined> {
    const known = this.viewers.get(authorization);
    if (known && now < known.until) return known.viewer;
    let viewer: Viewer | null;
    const forgotten = this.forgotten;
    try {
      viewer = await this.authenticate(authorization);
    } catch {
      return undefined;
    }
    if (!viewer) return undefined;
    if (forgotten !== this.forgotten) return undefined; // Koa's chain checks it again
    this.viewers.set(authorization, { viewer, until: Math.min(now + VIEWER_REUSE_MS, expiryOf(authorization) ?? now) });
    return viewer;
  }

  /** Forgets every remembered viewer: a token or grant was revoked, and its next request must be checked again. */
  forget(): void {
    this.forgotten++;
    this.viewers.clear();
  }
}

/** `exp` of a JWT bearer token (already verified by the authenticator), in ms; undefined when it has none. */
function expiryOf(authorization: string): number | undefined {
  const payload = authorization.split('.')[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The declared length of a JSON body the fast path may look at, or undefined (it is left to Koa). At most the
 * stream's buffer (16 KiB by default): a larger body would stop arriving until someone reads it. Operations
 * are rarely larger; those that are go through Koa, cached all the same.
 */
export function jsonBodyLength(req: IncomingMessage): number | undefined {
  const type = req.headers['content-type'];
  const length = Number(req.headers['content-length']);
  if (
    !type ||
    !/^application\/json\s*(;|$)/i.test(type) ||
    !Number.isInteger(length) ||
    length <= 0 ||
    length > req.readableHighWaterMark
  )
    return undefined;
  return length;
}

/**
 * The whole body once it has arrived, left on the stream for Koa's body parser: it is read and put back in
 * one tick (Readable's `unshift`, the way a parser returns what it looked at), so the stream never sees its
 * end. Undefined when the stream ends or fails first, or brings more than it declared: Koa meets the same.
 */
export function peekBody(req: IncomingMessage, length: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const finish = (body: Buffer | undefined): void => {
      req.off('readable', onReadable);
      req.off('end', onEnd);
      req.off('error', onEnd);
      req.off('close', onEnd);
      resolve(body);
    };
    const onReadable = (): void => {
      if (req.readableLength < length && !req.readableEnded) return;
      const body = req.read() as Buffer | null;
      if (body) req.unshift(body);
      finish(body?.length === length ? body : undefined);
    };
    const onEnd = (): void => finish(undefined);
    req.on('readable', onReadable);
    req.once('end', onEnd);
    req.once('error', onEnd);
    // A client that never sends the body it announced: the server's request timeout closes it.
    req.once('close', onEnd);
  });
}

/** After answering from the cache: the body was looked at, not consumed; let it drain. */
export function discardBody(req: IncomingMessage): void {
  req.resume();
}

/** The key of a signed-in reader's shareable GraphQL answer: never the token, only what the answer depends on. */
export function sharedKey(params: Record<string, unknown>, groups: readonly string[]): string | undefined {
  const { query, operationName, variables, extensions } = params;
  // Not shareable, and too deep to serialise safely: the GraphQL layer refuses such variables (400).
  if (nestedDeeperThan(variables, MAX_VARIABLE_DEPTH) || nestedDeeperThan(extensions, MAX_VARIABLE_DEPTH))
    return undefined;
  const text = typeof query === 'string' ? query : undefined;
  const persisted =
    typeof extensions === 'string' ? extensions : extensions === undefined ? undefined : JSON.stringify(extensions);
  if (text === undefined && persisted === undefined) return undefined;
  const vars = typeof variables === 'string' ? variables : JSON.stringify(variables ?? null);
  // JSON of an array: no value can forge another entry's separators.
  return JSON.stringify([
    'shared',
    groups,
    typeof operationName === 'string' ? operationName : null,
    text ?? null,
    text === undefined ? persisted : null,
    vars,
  ]);
}

/** The GraphQL request's parameters from a GET URL. */
export function paramsOfUrl(url: string): Record<string, unknown> {
  const search = new URLSearchParams(url.slice(url.indexOf('?') + 1));
  const params: Record<string, unknown> = {};
  for (const name of ['query', 'operationName', 'variables', 'extensions']) {
    const value = search.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}
