// The per-request context shared by GraphQL resolvers, REST shims and operations: created per request, never shared.
import type { Config } from './config.js';
import { processCursorCodec, type CursorCodec } from './cursors/codec.js';
import type { LiveFeed } from './live/feed.js';
import type { Logger } from './logger.js';
import { AnswerKeys } from './cache/answer-keys.js';
import type { SharedAnswerState } from './cache/shared-viewer.js';
import type { Mailer } from './mail/mailer.js';
import { Loaders, type OperationSelection } from './store/loaders.js';
import type { PreviewTokens } from './operations/content/preview-token.js';
import type { Preview } from './store/content/visibility.js';
import type { Store } from './store/store.js';
import type { Viewer } from './viewer.js';

export type { Entitlement, Viewer } from './viewer.js';

export interface Context {
  requestId: string;
  log: Logger;
  config: Config;
  store: Store;
  mailer: Mailer;
  loaders: Loaders;
  viewer: Viewer | null;
  /** The client's address (behind TRUST_PROXY proxies, from X-Forwarded-For): per-IP limits. */
  clientIp?: string;
  /** True when the request presented credentials: its responses are private, never in a shared (public) cache. */
  authenticated: boolean;
  now: Date;
  /**
   * What the GraphQL layer learns for the HTTP layer (the operation's name, a bounded metrics label). An
   * object, because Apollo shallow-clones the context per operation and a plain field would be lost. `shared`:
   * a signed-in reader's answer that readers with the same entitlements may be given (src/cache/shared-viewer.ts).
   * `keys`: the surrogate keys of an anonymous reader's answer, collected by the executor (src/cache/answer-keys.ts).
   */
  http: { operationName?: string; shared?: SharedAnswerState; keys?: AnswerKeys };
  /** Signs and checks connection cursors with the service's keys. */
  cursors: CursorCodec;
  /** Signs and checks preview link tokens with keys derived from the same (HTTP requests only). */
  previewTokens?: PreviewTokens;
  /**
   * Set when the request asked for a preview and was allowed it (src/operations/content/preview.ts): what it sees
   * beyond readers' rules. Its answer is private and never stored.
   */
  preview?: Preview;
  /** Set on GraphQL-over-WebSocket operations: the process's live hub and this connection (src/live). */
  live?: LiveFeed;
  /**
   * What src/http/trusted-documents.ts decided for Apollo: the registered document a request named by id instead
   * of sending it, and whether its answer must not be shared with other readers (src/graphql/documents/plugin.ts).
   */
  trustedDocument?: { text?: string; notShared?: boolean };
  /** The fields the running GraphQL operation selects, so loaders read only what it needs (an object, as above). */
  operation: OperationSelection;
}

export function createContext(input: {
  requestId: string;
  log: Logger;
  config: Config;
  store: Store;
  mailer: Mailer;
  viewer: Viewer | null;
  cursors?: CursorCodec;
  previewTokens?: PreviewTokens;
  clientIp?: string;
}): Context {
  const operation: OperationSelection = {};
  // Field by field rather than spreading `input`: one shape for every request's context.
  return {
    requestId: input.requestId,
    log: input.log,
    config: input.config,
    store: input.store,
    mailer: input.mailer,
    viewer: input.viewer,
    clientIp: input.clientIp,
    cursors: input.cursors ?? processCursorCodec(),
    previewTokens: input.previewTokens,
    loaders: new Loaders(input.store, operation),
    operation,
    authenticated: input.viewer !== null,
    http: input.viewer === null ? { keys: new AnswerKeys() } : {},
    now: new Date(),
  };
}

/** Whether the viewer holds an active entitlement for one of `groups` at `now`. */
export async function hasEntitlement(viewer: Viewer | null, groups: readonly string[], now: Date): Promise<boolean> {
  if (!viewer) return false;
  const entitlements = await viewer.entitlements();
  return entitlements.some((e) => groups.includes(e.group) && (e.validUntil === null || e.validUntil > now));
}
