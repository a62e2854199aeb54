// The measured scenarios: which server each one asks, what it asks, and the answer every request is checked
// against.
import type { GatewayAnswers } from './gateway-answers.js';
import { expectExact, type Check, type LoadRequest } from './load.js';
import type { BenchOptions } from './options.js';
import type { Row } from './report.js';
import {
  categoriesPath,
  graphqlGetHeaders,
  nestedGetPath,
  nestedPostBody,
  restListPath,
  REST_LIMIT,
  smallPostBody,
} from './scenarios.js';
import type { Service } from './stack.js';
import { tokenCheck, tokenHeaders, TOKEN_PATH, type RefreshTokenPool } from './tokens.js';

export interface Scenario {
  key: string;
  label: string;
  server: Row['server'];
  target: () => Service;
  requests: () => LoadRequest[];
  connections?: number;
  timeoutSeconds?: number;
  ceiling?: string;
  minimal?: string;
  /** Stored answers this scenario reads must outlive the run (a POST when `body` is given). */
  cached?: { path: string; headers: Record<string, string>; body?: string };
  /**
   * The service as `npm start` runs it (embedded engine on the dataset, with this environment): measured after
   * everything else, once the engine process has been stopped, since the two cannot open one data directory.
   */
  embedded?: Record<string, string>;
  /** Runs before the warm-up and before the measured run. */
  before?: (connections: number) => Promise<void>;
  /** Each answer needs a lot of store work: longer warm-up and run, so that several answers complete. */
  heavy?: boolean;
  note?: string;
}

export const get = (path: string, expected: string, headers: Record<string, string> = {}): LoadRequest => ({
  method: 'GET',
  path,
  headers,
  check: expectExact(expected),
});
export const post = (
  path: string,
  body: string,
  expected: string,
  headers: Record<string, string> = {},
): LoadRequest => ({
  method: 'POST',
  path,
  body,
  headers,
  check: expectExact(expected),
});

const BROTLI = { 'accept-encoding': 'br' };

/**
 * A coded answer, as autocannon gives it (its chunks decoded as UTF-8 one by one, so not comparable byte for
 * byte): a 200 well under the identity answer's size.
 */
const expectCompressed =
  (identityLength: number): Check =>
  (status, body) =>
    status !== 200
      ? `status ${status}`
      : body.length * 3 < identityLength
        ? null
        : `not compressed (${body.length} of ${identityLength} chars)`;

/** The response cache makes a kept variant on first demand, off the event loop: wait until it is sent. */
async function keptVariantReady(base: string, path: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${base}${path}`, { headers: BROTLI });
    await res.arrayBuffer();
    if (res.headers.get('content-encoding') === 'br' && res.headers.get('x-cache') === 'HIT') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path}: the cached answer never came in br`);
}

/** Each connection asks for the next article of the list and checks the answer against that article's. */
export function smallRequests(smallIds: string[], smallAnswers: Map<string, string>): () => LoadRequest {
  let nextSmall = 0;
  return (): LoadRequest => ({
    method: 'POST',
    path: '/graphql',
    dynamicBody: (context) => {
      const id = smallIds[nextSmall++ % smallIds.length]!;
      context.smallId = id;
      return smallPostBody(id);
    },
    check: (status, body, context) => expectExact(smallAnswers.get(context.smallId as string)!)(status, body, context),
  });
}

export const refreshRequest = (pool: RefreshTokenPool): LoadRequest => ({
  method: 'POST',
  path: TOKEN_PATH,
  headers: tokenHeaders,
  dynamicBody: () => pool.nextBody(),
  check: tokenCheck,
  onAnswer: pool.onAnswer,
});

/** What the scenarios are measured against and the answers they expect. */
export interface ScenarioContext {
  opts: BenchOptions;
  service: Service;
  minimal: Service;
  ceiling: Service;
  /** The second service process, without response cache (started when its first scenario comes). */
  noCacheService: () => Service;
  /** The service with its embedded engine (started for each of its scenarios). */
  embeddedService: () => Service;
  answers: GatewayAnswers;
  itemBody: string;
  signedIn: Record<string, string>;
  signIn: () => Promise<void>;
  topUp: (connections: number) => Promise<void>;
  small: () => LoadRequest;
  refresh: () => LoadRequest;
}

export function scenarioList(c: ScenarioContext): Scenario[] {
  const {
    opts,
    service,
    minimal,
    ceiling,
    noCacheService,
    embeddedService,
    itemBody,
    signedIn,
    signIn,
    topUp,
    small,
    refresh,
  } = c;
  const { nestedPost, restMiss, restMs, categories, item } = c.answers;
  const restTimeout = Math.min(120, Math.max(30, Math.ceil((restMs / 1000) * opts.restConnections * 2)));

  return [
    {
      heavy: true,
      key: 'nested',
      label: 'nested query, uncached (POST)',
      server: 'gateway',
      target: () => service,
      requests: () => [post('/graphql', nestedPostBody, nestedPost.text)],
      ceiling: 'ceiling-nested',
      minimal: 'minimal-nested',
    },
    {
      heavy: true,
      key: 'minimal-nested',
      label: 'nested query',
      server: 'minimal',
      target: () => minimal,
      requests: () => [post('/graphql', nestedPostBody, nestedPost.text)],
    },
    {
      key: 'small',
      label: 'small query article(id) { id title } (POST)',
      server: 'gateway',
      target: () => service,
      requests: () => [small()],
      minimal: 'minimal-small',
    },
    {
      key: 'minimal-small',
      label: 'small query',
      server: 'minimal',
      target: () => minimal,
      requests: () => [small()],
    },
    {
      key: 'signed-in',
      label: 'signed-in reader, nested query (POST)',
      server: 'gateway',
      target: () => service,
      requests: () => [post('/graphql', nestedPostBody, nestedPost.text, signedIn)],
      ceiling: 'ceiling-nested',
      cached: { path: '/graphql', headers: signedIn, body: nestedPostBody },
      before: signIn,
      note: "the demo customer's access token; an answer shared among readers with the same entitlements",
    },
    {
      key: 'nested-cached',
      label: 'nested query, cached (GET)',
      server: 'gateway',
      target: () => service,
      requests: () => [get(nestedGetPath, nestedPost.text, graphqlGetHeaders)],
      ceiling: 'ceiling-nested',
      minimal: 'minimal-nested',
      cached: { path: nestedGetPath, headers: graphqlGetHeaders },
    },
    {
      key: 'ceiling-nested',
      label: 'nested query',
      server: 'ceiling',
      target: () => ceiling,
      requests: () => [get(nestedGetPath, nestedPost.text, graphqlGetHeaders)],
    },
    {
      key: 'rest-cached',
      label: `GET /cms/page/{id}/issues?limit=${REST_LIMIT}, cached`,
      server: 'gateway',
      target: () => service,
      requests: () => [get(restListPath, restMiss.text)],
      ceiling: 'ceiling-rest',
      minimal: 'minimal-rest',
      cached: { path: restListPath, headers: {} },
    },
    {
      key: 'rest-cached-br',
      label: `GET /cms/page/{id}/issues?limit=${REST_LIMIT}, cached, br`,
      server: 'gateway',
      target: () => service,
      requests: () => [
        { method: 'GET', path: restListPath, headers: BROTLI, check: expectCompressed(restMiss.text.length) },
      ],
      ceiling: 'ceiling-rest',
      cached: { path: restListPath, headers: BROTLI },
      before: () => keptVariantReady(service.url, restListPath),
      note: 'the kept brotli variant of the answer of the row before (identity): the service CPU per answer of each',
    },
    {
      key: 'ceiling-rest',
      label: 'REST list',
      server: 'ceiling',
      target: () => ceiling,
      requests: () => [get(restListPath, restMiss.text)],
    },
    {
      heavy: true,
      key: 'rest-uncached',
      label: `GET /cms/page/{id}/issues?limit=${REST_LIMIT}, uncached`,
      server: 'gateway',
      target: noCacheService,
      requests: () => [get(restListPath, restMiss.text)],
      connections: opts.restConnections,
      timeoutSeconds: restTimeout,
      minimal: 'minimal-rest',
      ceiling: 'ceiling-rest',
      note: `a second service process started with RESPONSE_CACHE_MB=0 (one answer alone, computed before the runs, took ${restMs.toFixed(0)} ms)`,
    },
    {
      heavy: true,
      key: 'minimal-rest',
      label: 'REST list',
      server: 'minimal',
      target: () => minimal,
      requests: () => [get(restListPath, restMiss.text)],
      connections: opts.restConnections,
      timeoutSeconds: restTimeout,
    },
    {
      key: 'categories-cached',
      label: 'GET /cms/product/categories?parentId=root, cached',
      server: 'gateway',
      target: () => service,
      requests: () => [get(categoriesPath, categories.text)],
      ceiling: 'ceiling-categories',
      cached: { path: categoriesPath, headers: {} },
    },
    {
      heavy: true,
      key: 'categories-uncached',
      label: 'GET /cms/product/categories?parentId=root, uncached',
      server: 'gateway',
      target: noCacheService,
      requests: () => [get(categoriesPath, categories.text)],
      ceiling: 'ceiling-categories',
      note: 'the second service process, RESPONSE_CACHE_MB=0',
    },
    {
      key: 'ceiling-categories',
      label: 'categories',
      server: 'ceiling',
      target: () => ceiling,
      requests: () => [get(categoriesPath, categories.text)],
    },
    {
      key: 'product-item',
      label: 'productItem(id) lookup (POST)',
      server: 'gateway',
      target: () => service,
      requests: () => [post('/graphql', itemBody, item.text)],
    },
    {
      heavy: true,
      key: 'start',
      label: '`npm start`, uncached nested query (POST)',
      server: 'gateway',
      target: () => embeddedService(),
      requests: () => [post('/graphql', nestedPostBody, nestedPost.text)],
      embedded: {},
      note: 'the service with its embedded engine on the same dataset (no MONGODB_URI), response cache off; "server" CPU is the whole process, engine included',
    },
    {
      heavy: true,
      key: 'start-in-loop',
      label: "`npm start`, engine in the service's event loop",
      server: 'gateway',
      target: () => embeddedService(),
      requests: () => [post('/graphql', nestedPostBody, nestedPost.text)],
      embedded: { ENGINE_WORKER: 'false' },
      note: 'as `npm start` ran before the engine had a thread of its own (ENGINE_WORKER=false)',
    },
    {
      key: 'refresh',
      label: 'refresh_token grant',
      server: 'gateway',
      target: () => service,
      requests: () => [refresh()],
      before: topUp,
      note: "each request presents a refresh token never used before: tokens come from a pool minted with the password grant and every answer's rotated token goes back into it",
    },
  ];
}
