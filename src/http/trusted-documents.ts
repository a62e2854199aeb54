// /graphql requests that name a document instead of sending it (`documentId`, or an APQ hash alone), and the
// allowlist TRUSTED_DOCUMENTS=enforce makes of the registered documents. Runs after the bearer check (a client
// runs the public list and its own manifests) and before the shared-answer cache and Apollo; the document found
// is left on the context for Apollo (src/graphql/documents/plugin.ts). Refusals are AppErrors, which
// graphqlHttpErrors answers in GraphQL's shape with their code.
import type Koa from 'koa';
import type { Config } from '../config.js';
import {
  apqHash,
  documentIdsUnsupported,
  documentMismatch,
  documentNotFound,
  parseDocumentId,
  sha256Hex,
  trustedDocumentRequired,
} from '../graphql/documents/document-id.js';
import { ownersOf, type DocumentRegistry, type TrustedDocument } from '../graphql/documents/registry.js';
import { DEVELOPER_SCOPE } from '../oauth/clients.js';
import type { Viewer } from '../viewer.js';
import type { AppState } from './app-context.js';

/** Set by the bundled playground on every request: in development it may run any document (see `mayBypass`). */
const PLAYGROUND_HEADER = 'x-gateway-playground';

/**
 * Who runs documents nobody registered while TRUSTED_DOCUMENTS=enforce: a token with the `developer` scope
 * (a developer tool's client, given the scope on purpose), and the playground outside production, where the
 * header it sends is enough because the playground itself is the development tool. Production ignores the header.
 */
function mayBypass(config: Config, ctx: Koa.Context, viewer: Viewer | null): boolean {
  if (viewer?.scopes.has(DEVELOPER_SCOPE)) return true;
  return config.playground && !config.isProduction && ctx.get(PLAYGROUND_HEADER) !== '';
}

/** The request's GraphQL parameters (GET: the query string, as strings or repeated arrays; POST: the JSON body). */
function paramsOf(ctx: Koa.Context): Record<string, unknown> | undefined {
  const params = ctx.method === 'GET' ? ctx.query : (ctx.request as { body?: unknown }).body;
  return params && typeof params === 'object' && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

export function trustedDocuments(config: Config, registry: DocumentRegistry): Koa.Middleware<AppState> {
  const mode = config.trustedDocuments;
  return async (koaCtx, next) => {
    const ctx = koaCtx as unknown as Koa.Context;
    const context = koaCtx.state.context!;
    const params = paramsOf(ctx);
    if (!params) return next();
    const named = params.documentId;
    if (mode === 'off') {
      if (named !== undefined) throw documentIdsUnsupported();
      return next();
    }
    const query = typeof params.query === 'string' ? params.query : undefined;
    const hash = apqHash(params.extensions);
    const owners = ownersOf(context.viewer);
    // Under enforce, only answers of documents every caller may run are shared (the response cache answers
    // before this check): one client's documents and a bypass are computed for their caller alone.
    const run = (found: TrustedDocument | null, text?: string): void => {
      context.trustedDocument = { text, notShared: mode === 'enforce' && !found?.everyone };
    };

    if (named !== undefined) {
      const ref = parseDocumentId(named);
      const hashOfQuery = query === undefined ? undefined : sha256Hex(query);
      if ('sha256' in ref && ((hash && hash !== ref.sha256) || (hashOfQuery && hashOfQuery !== ref.sha256)))
        throw documentMismatch();
      const found = await registry.find(owners, ref);
      if (found === null) throw documentNotFound();
      if (query !== undefined && query !== found.body) throw documentMismatch();
      run(found, found.body);
      return next();
    }
    // An APQ hash alone: a registered document runs without the round trip that registers it with Apollo.
    if (hash && query === undefined) {
      const found = await registry.find(owners, { sha256: hash });
      if (found !== null) run(found, found.body);
      else if (mode === 'enforce') throw documentNotFound();
      return next();
    }
    if (mode === 'allow' || query === undefined) return next();
    const found = await registry.find(owners, { sha256: sha256Hex(query) });
    if (found === null && !mayBypass(config, ctx, context.viewer)) throw trustedDocumentRequired();
    run(found);
    return next();
  };
}
