// What every route of the app shares: the dependencies it is built from, the per-request state, the JSON body
// parser and the per-request context. Here rather than in app.ts so the REST routes and the app can both use
// them without importing each other.
import { bodyParser } from '@koa/bodyparser';
import type { GraphQLSchema } from 'graphql';
import type Koa from 'koa';
import type { Config } from '../config.js';
import { createContext, type Context } from '../context.js';
import { badRequest } from '../errors.js';
import type { CursorCodec } from '../cursors/codec.js';
import type { PreviewTokens } from '../operations/content/preview-token.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/index.js';
import type { OAuthKeys } from '../oauth/keys.js';
import type { Store } from '../store/store.js';
import { anonymousOnly, type Authenticator } from './authenticate.js';
import type { RequestState } from './request-context.js';
import { checkJsonBody } from './security.js';

export interface AppDeps {
  config: Config;
  log: Logger;
  store: Store;
  schema: GraphQLSchema;
  authenticate?: Authenticator;
  /** Outgoing mail (OTP codes, newsletter keys). */
  mailer: Mailer;
  /** Signs connection cursors with the service's keys (createApp loads them). */
  cursors?: CursorCodec;
  /** Signs preview link tokens with keys derived from the same. */
  previewTokens?: PreviewTokens;
  /** The authorization server's keys, when their loading started earlier (createApp loads them otherwise). */
  oauthKeys?: Promise<OAuthKeys>;
}

export interface AppState extends RequestState {
  context?: Context;
}

/**
 * JSON bodies only (415 for anything else), bounded at 1 MiB (docs/api.md). A body the parser cannot even
 * read (one that does not inflate per its Content-Encoding: zlib and brotli errors carry no HTTP status) is
 * the client's 400, not a server fault.
 */
export function jsonBody(): Koa.Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: '1mb',
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  });
  return async (ctx, next) => {
    checkJsonBody(ctx);
    let parsed = false;
    try {
      await parse(ctx, () => {
        parsed = true;
        return next();
      });
    } catch (err) {
      if (parsed || typeof (err as { status?: unknown }).status === 'number') throw err;
      throw badRequest('The request body could not be decoded (check its Content-Encoding)');
    }
  };
}

/** Builds the per-request context: the viewer from the bearer token (401 for a bad one), loaders, store. */
export function withContext(deps: AppDeps): Koa.Middleware<AppState> {
  const authenticate = deps.authenticate ?? anonymousOnly;
  return async (ctx, next) => {
    const viewer = await authenticate(ctx.get('authorization') || undefined);
    ctx.state.context = createContext({
      requestId: ctx.state.requestId,
      log: ctx.state.log,
      config: deps.config,
      store: deps.store,
      mailer: deps.mailer,
      viewer,
      cursors: deps.cursors,
      previewTokens: deps.previewTokens,
      clientIp: ctx.ip,
    });
    try {
      await next();
    } finally {
      // The answer is made: drop the documents the loaders hold (src/store/loaders.ts, `release`).
      ctx.state.context.loaders.release();
    }
  };
}
