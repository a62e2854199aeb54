// Answering from a stored entry, through Koa or straight on node:http: the same headers either way, and the
// hit counted and logged as the Koa chain counts and logs the request it stands in for.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { Counter } from 'prom-client';
import type { Logger } from '../logger.js';
import { httpRequests, registry } from '../metrics/metrics.js';
import { SANE_REQUEST_ID } from '../metrics/request-labels.js';
import { ifNoneMatchMatches } from './cacheable.js';
import { acceptableCodings, codingFor, isCompressible, type Coding } from './codings.js';
import { ageOf, type Delivery, type Stored } from './stored-answer.js';

const lookups = new Counter({
  name: 'response_cache_lookups_total',
  help: 'Response cache lookups by result',
  labelNames: ['result'] as const,
  registers: [registry],
});
const hits = lookups.labels({ result: 'hit' });
export const misses = lookups.labels({ result: 'miss' });

export interface Chosen {
  body: Buffer;
  etag: string;
  coding: Coding;
}

/**
 * The representation of a stored answer a client with `acceptEncoding` gets on the fast path: a coded variant
 * when it is ready, identity otherwise; undefined when the client takes neither, which Koa then answers (with a
 * per-request compression, or a 406).
 */
export function representationOf(hit: Stored, acceptEncoding: string | undefined): Chosen | undefined {
  const identity: Chosen = { body: hit.body, etag: hit.etag, coding: 'identity' };
  if (!isCompressible(hit.headers['content-type'] ?? '')) return identity;
  const coding = codingFor(acceptEncoding, hit.body.length);
  if (coding === undefined) return undefined;
  if (coding !== 'identity') {
    const variant = hit.kept.variant(coding);
    if (variant) return variant;
  }
  return acceptableCodings(acceptEncoding).includes('identity') ? identity : undefined;
}

/** Writes a stored answer on node:http with the headers the whole chain sent for it, and counts it. */
export function deliver(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  hit: Stored,
  delivery: Delivery,
  chosen: Chosen,
  now: number,
  started: number,
  conditional: boolean,
): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  const notModified = conditional && ifNoneMatchMatches(req.headers['if-none-match'] ?? '', chosen.etag);
  const out = delivery.headers.concat(
    'etag',
    chosen.etag,
    'x-request-id',
    requestId,
    'age',
    String(ageOf(hit, now)),
    'x-cache',
    'HIT',
  );
  hits.inc();
  if (notModified) {
    res.writeHead(304, out).end();
  } else {
    if (chosen.coding !== 'identity') out.push('content-encoding', chosen.coding);
    out.push('content-length', String(chosen.body.length));
    res.writeHead(200, out).end(chosen.body);
  }
  const ms = performance.now() - started;
  const method = req.method ?? 'GET';
  const status = notModified ? 304 : 200;
  metricOf(delivery, method, status).observe(ms / 1000);
  if (log.isLevelEnabled('info'))
    log.info({ requestId, method, path: req.url!.split('?', 1)[0], status, ms: Math.round(ms * 10) / 10 }, 'request');
}

/** Answers from a stored entry through Koa (304 when the client has it and asked with GET). */
export function replay(ctx: Koa.Context, hit: Stored, now: number, conditional = true): void {
  hits.inc();
  // Counted under the route or operation that computed the answer, as the fast path counts it.
  if (hit.route) (ctx as { _matchedRoute?: string })._matchedRoute = hit.route;
  for (const [name, value] of Object.entries(hit.headers)) ctx.set(name, value);
  ctx.set('Age', String(ageOf(hit, now)));
  ctx.set('X-Cache', 'HIT');
  if (conditional && ifNoneMatchMatches(ctx.get('if-none-match'), hit.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = hit.body;
}

function metricOf(delivery: Delivery, method: string, status: number): ReturnType<typeof httpRequests.labels> {
  const key = `${method} ${status}`;
  let metric = delivery.metrics.get(key);
  if (!metric)
    delivery.metrics.set(
      key,
      (metric = httpRequests.labels({ method, route: delivery.route, status: String(status) })),
    );
  return metric;
}
