// An entry of the response cache: the answer's bytes and headers as Koa first sent them, and when it stops being
// fresh; made from the sent response so that a hit answers exactly like the answer it replays.
import type { OutgoingHttpHeaders } from 'node:http';
import type { httpRequests } from '../metrics/metrics.js';
import type { KeptAnswer } from './kept-answer.js';

/** What the fast path needs to answer like the Koa chain did. */
export interface Delivery {
  /** Every response header of the first answer but those of one delivery, as `writeHead`'s flat list. */
  headers: string[];
  route: string;
  /** The request-duration metric by method and status, as the Koa chain labels it. */
  metrics: Map<string, ReturnType<typeof httpRequests.labels>>;
}

export interface Stored {
  body: Buffer;
  headers: Record<string, string>;
  /** The identity representation's ETag. */
  etag: string;
  /** The body and its coded variants, each compressed once (`body` and `etag` are its identity). */
  kept: KeptAnswer;
  storedAt: number;
  /** Fresh until then (ms since the epoch). */
  expiresAt: number;
  /** The max-age (seconds) the answer was sent with; the service may keep it longer (see `keepLonger`). */
  maxAge: number;
  graphql: boolean;
  /** Shared among signed-in readers with the same entitlements (`private`), rather than public. */
  shared: boolean;
  /** The GraphQL types the operation selects (what a write must touch to change the answer). */
  types?: ReadonlySet<string>;
  /** The metrics label of the request that computed it (a GraphQL operation, a route pattern). */
  route?: string;
  delivery?: Delivery;
}

/** What the cache tells of an entry to what decides about it (eviction, the end of its life). */
export interface EntryFacts {
  /** The request URL for public entries (a REST path), a key of its own for shared ones. */
  key: string;
  graphql: boolean;
  shared: boolean;
  types?: ReadonlySet<string>;
  route?: string;
}

/** Response headers that belong to the answer (not to one delivery of it, nor to the request's origin). */
export const KEPT_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'link',
  'deprecation',
  'vary',
  'surrogate-key',
  'cache-tag',
  'surrogate-control',
  'cdn-cache-control',
];
/** Headers of one delivery (or of one representation: its coding and ETag), never replayed by the fast path. */
const PER_DELIVERY = new Set([
  'etag',
  'content-encoding',
  'x-request-id',
  'date',
  'content-length',
  'age',
  'x-cache',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** The max-age directive of a Cache-Control value: the whole match and the seconds. */
export const MAX_AGE = /max-age=(\d+)/;

export function maxAgeIf(scope: 'public' | 'private', cacheControl: string): number {
  if (!cacheControl.includes(scope) || /no-store|no-cache|public.*private|private.*public/.test(cacheControl)) return 0;
  const match = MAX_AGE.exec(cacheControl);
  return match ? Number(match[1]) : 0;
}

/**
 * The Age sent with a stored answer. An entry kept past its max-age (writes evict it when it changes) is as
 * current as a fresh one: its age counts from the last whole max-age period, so browsers and CDNs still get a
 * fresh answer for the rest of that period and never one already stale.
 */
export function ageOf(hit: Stored, now: number): number {
  const age = Math.floor((now - hit.storedAt) / 1000);
  return age < hit.maxAge ? age : age % hit.maxAge;
}

export function deliveryOf(sent: OutgoingHttpHeaders, route: string): Delivery {
  const headers: string[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (PER_DELIVERY.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) headers.push(name, one);
  }
  return { headers, route, metrics: new Map() };
}

export function toBuffer(body: unknown): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function')
    return Buffer.from(JSON.stringify(body), 'utf8');
  return undefined;
}
