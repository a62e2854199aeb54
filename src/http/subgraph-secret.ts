// /graphql/subgraph answers only a supergraph router: the secret it shares with the service, in a header of its own
// (Authorization is the client's bearer token, which the router passes on so each reader's rules still apply).
import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { forbidden } from '../errors.js';
import type { AppState } from './app-context.js';

export const SUBGRAPH_PATH = '/graphql/subgraph';
const SUBGRAPH_SECRET_HEADER = 'x-subgraph-secret';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** 403 unless the request carries `secret` in X-Subgraph-Secret (compared in constant time, digests of equal length). */
export function routerOnly(secret: string): Koa.Middleware<AppState> {
  const expected = digest(secret);
  return (ctx, next) => {
    const given = ctx.get(SUBGRAPH_SECRET_HEADER);
    if (!given || !timingSafeEqual(digest(given), expected))
      throw forbidden(
        `Only a supergraph router sending the subgraph secret in X-Subgraph-Secret may call ${SUBGRAPH_PATH}`,
      );
    return next();
  };
}
