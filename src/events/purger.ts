// Purges of a cache in front: cache-purge events become requests to CDN_PURGE_URL naming their keys, as the
// cache there takes them (CDN_PURGE_PROVIDER): Varnish with the xkey module (deploy/varnish/default.vcl) a
// `PURGE` with `xkey-purge`, Fastly a `POST /service/{id}/purge` with `Surrogate-Key`, Cloudflare a
// `POST /zones/{id}/purge_cache` with `{"tags": [...]}`; the last two with the API token of CDN_PURGE_TOKEN. The purges travel the webhook
// outbox as deliveries to a built-in endpoint (so they survive restarts, go out once across processes and are
// retried like any delivery); those queued within a window go out together, their keys named once each. The URL is the operator's own setting, not an administrator's through the API, and a
// cache in front sits on the internal network: it is not held to the public-address rule webhooks are.
import type { Dispatcher } from 'undici';
import type { DeliveryAttemptDoc, WebhookEndpointDoc } from '../store/webhooks/webhook.docs.js';
import { AttemptPool, attemptTimer, describeFailure, type SenderOptions } from './sender.js';

/** The id of the built-in endpoint purges are queued for (never stored in `webhookEndpoints`). */
export const PURGE_ENDPOINT_ID = 'cdn-purge';

/** The built-in endpoint: enabled, asking for cache-purge events only. */
export function purgeEndpoint(url: string): WebhookEndpointDoc {
  const epoch = new Date(0);
  return {
    _id: PURGE_ENDPOINT_ID,
    url,
    description: 'CDN_PURGE_URL',
    eventTypes: ['cache.purge'],
    secret: '',
    previousSecrets: [],
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: epoch,
    updatedAt: epoch,
  };
}

type PurgeProvider = 'varnish' | 'fastly' | 'cloudflare';

interface PurgeRequest {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
}

/**
 * How each cache takes a purge of some keys, and how many keys one request may name: at most `perRequest`, and
 * for a cache that reads them from one header line, at most `maxBytes` of it.
 */
const PROVIDERS: Record<
  PurgeProvider,
  { perRequest: number; maxBytes?: number; request(keys: string[], token: string): PurgeRequest }
> = {
  // Varnish refuses a header line over 8 KiB (its http_req_hdr_len).
  varnish: {
    perRequest: 200,
    maxBytes: 7_000,
    request: (keys) => ({ method: 'PURGE' as Dispatcher.HttpMethod, headers: { 'xkey-purge': keys.join(' ') } }),
  },
  fastly: {
    perRequest: 256,
    maxBytes: 7_000,
    request: (keys, token) => ({
      method: 'POST',
      headers: { 'surrogate-key': keys.join(' '), 'fastly-key': token, accept: 'application/json' },
    }),
  },
  cloudflare: {
    perRequest: 30,
    request: (keys, token) => ({
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ tags: keys }),
    }),
  },
};

/**
 * Answers that refuse what a request named (a malformed or oversized key list): its keys are sent again in two
 * halves, so that one key the cache will never take holds back only itself.
 */
const REFUSED = new Set([400, 413, 414, 422, 431]);

/**
 * How many refused requests of a purge in `chunks` requests are split in halves: enough to single out a refused
 * key in each request and a few more (one costs a split per halving: five in a chunk of 30), not one per key.
 */
const splits = (chunks: number): number => chunks + 16;

/** What a purge did: the attempt as the log keeps it (its first failure, if any), and the keys not purged. */
export interface PurgeOutcome {
  attempt: DeliveryAttemptDoc;
  failed: ReadonlySet<string>;
}

/** The keys a cache-purge event's body names. */
export function keysOf(body: string): string[] {
  const keys = (JSON.parse(body) as { data?: { keys?: unknown } }).data?.keys;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}

export class Purger {
  private readonly pool: AttemptPool;

  constructor(
    private readonly target: { url: string; provider: PurgeProvider; token?: string },
    private readonly options: SenderOptions,
  ) {
    this.pool = new AttemptPool(options);
  }

  /** The requests `keys` take: each within the cache's limits (a key longer than them alone in its own). */
  private chunks(keys: readonly string[]): string[][] {
    const { perRequest, maxBytes = Infinity } = PROVIDERS[this.target.provider];
    const out: string[][] = [];
    let chunk: string[] = [];
    let bytes = 0;
    for (const key of keys) {
      const size = Buffer.byteLength(key) + 1;
      if (chunk.length && (chunk.length >= perRequest || bytes + size > maxBytes)) {
        out.push(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(key);
      bytes += size;
    }
    if (chunk.length) out.push(chunk);
    return out;
  }

  /** The most requests purging `keys` takes: its chunks, and the halves of the refused ones (`splits`). */
  requestsAtMost(keys: readonly string[]): number {
    const chunks = this.chunks(keys).length;
    return chunks + 2 * splits(chunks);
  }

  /**
   * Purges `keys` in as many requests as the cache's limits take. A request the cache refuses for what it names
   * is split in halves down to single keys, within a budget of splits (a cache refusing every request, say for
   * a wrong zone, would otherwise get two requests per key); any other failure (no answer, a 5xx, a refused
   * token) ends the attempt there, and the keys not sent yet count as not purged.
   */
  async purge(keys: readonly string[], now = new Date()): Promise<PurgeOutcome> {
    const done = attemptTimer(now);
    const failed = new Set<string>();
    const queue = this.chunks(keys);
    let budget = splits(queue.length);
    let status: number | null = null;
    let error: string | null = null;
    let ended = false;
    for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
      if (ended) {
        for (const key of chunk) failed.add(key);
        continue;
      }
      const answer = await this.send(chunk);
      status = answer.status;
      if (answer.error === null) continue;
      error ??= answer.error;
      const refused = answer.status !== null && REFUSED.has(answer.status);
      if (refused && chunk.length > 1 && budget > 0) {
        budget--;
        const half = Math.ceil(chunk.length / 2);
        queue.unshift(chunk.slice(0, half), chunk.slice(half));
        continue;
      }
      for (const key of chunk) failed.add(key);
      if (!refused) ended = true;
    }
    return { attempt: done(status, failed.size ? error : null), failed };
  }

  private async send(keys: string[]): Promise<{ status: number | null; error: string | null }> {
    const { method, headers, body } = PROVIDERS[this.target.provider].request(keys, this.target.token ?? '');
    try {
      const res = await this.pool.request(this.target.url, {
        method,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: { ...headers, 'user-agent': 'gateway-purger/1' },
      });
      const text = await res.body.text();
      const status = res.statusCode;
      return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}: ${text.slice(0, 200)}` };
    } catch (err) {
      return { status: null, error: describeFailure(err) };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
