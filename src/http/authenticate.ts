// How a request's Authorization header (or a WebSocket's connection_init `authorization`) becomes a viewer.
// The OAuth module provides the real check; this module owns what counts as "a credential was presented".
import type { Viewer } from '../context.js';
import { unauthenticated } from '../errors.js';

/**
 * Returns the viewer for a presented credential, null when none was presented; throws 401 for anything else:
 * a bad or expired bearer token, `Bearer` with no token, and any other scheme (Basic, ...) alike.
 */
export type Authenticator = (authorization: string | undefined) => Promise<Viewer | null>;

/**
 * The credential a client presented, or undefined for none: a missing, non-string or blank value. A blank
 * header is what clients send for a signed-out user when they build the header as `token ? 'Bearer …' : ''`
 * (Apollo Client's documented pattern, the playground's empty header editor): that reads anonymously, on
 * HTTP and WebSocket alike. Anything else is a credential and must be valid.
 */
export function presentedCredential(raw: unknown): string | undefined {
  return typeof raw === 'string' && raw.trim() !== '' ? raw : undefined;
}

/** Until a token verifier is configured no credential can be valid, so presenting one is a 401. */
export const anonymousOnly: Authenticator = async (authorization) => {
  if (presentedCredential(authorization) === undefined) return null;
  throw unauthenticated('Bearer tokens are not accepted by this server');
};
