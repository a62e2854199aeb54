// How a request's Authorization header becomes a viewer. The OAuth module provides the real one.
import type { Viewer } from '../context.js';
import { unauthenticated } from '../errors.js';

/** Returns the viewer for a presented bearer token, null when none was presented; throws 401 for a bad one. */
export type Authenticator = (authorization: string | undefined) => Promise<Viewer | null>;

/** Until a token verifier is configured no token can be valid, so presenting one is a 401. */
export const anonymousOnly: Authenticator = async (authorization) => {
  if (!authorization) return null;
  throw unauthenticated('Bearer tokens are not accepted by this server');
};
