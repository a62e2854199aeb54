// Purges of a cache in front: cache-purge events become requests to CDN_PURGE_URL naming their keys, as the
// cache there takes them (CDN_PURGE_PROVIDER): Varnish with the xkey module (deploy/varnish/default.vcl) a
// `PURGE` with `xkey-purge`, Fastly a `POST /service/{id}/purge` with `Surrogate-Key`, Cloudflare a
// `POST /zones/{id}/purge_cache` with `{"tags": [...]}`; the last two with the API token of CDN_PURGE_TOKEN. The purges travel the webhook
// outbox as deliveries to a built-in endpoint (so they survive restarts, go out once across processes and are
// retried like any delivery); those queued within a window go out together, their keys named once each. The URL is the operator's own setting, not an administrator's through the API, and a
// cache in front sits on the internal network: it is not held to the public-address rule webhooks are.
import { request, type Agent, type Dispatcher } from 'undici';
import type { DeliveryAttemptDoc, WebhookEndpointDoc } from '../store/webhooks/webhook.docs.js';
import { attemptAgent, attemptTimer, describeFailure, type SenderOptions } from './sender.js';

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

/** How each cache takes a purge of some keys, and how many keys one request may name. */
const PROVIDERS: Record<PurgeProvider, { perRequest: number; request(keys: string[], token: string): PurgeRequest }> = {
  // Varnish's default limit on a header line is 8 KiB.
  varnish: {
    perRequest: 200,
    request: (keys) => ({ method: 'PURGE' as Dispatcher.HttpMethod, headers: { 'xkey-purge': keys.join(' ') } }),
  },
  fastly: {
    perRequest: 256,
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

/** The keys a cache-purge event's body names. */
export function keysOf(body: string): string[] {
  const keys = (JSON.parse(body) as { data?: { keys?: unknown } }).data?.keys;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}

export class Purger {
  private readonly agent: Agent;

  constructor(
    private readonly target: { url: string; provider: PurgeProvider; token?: string },
    private readonly options: SenderOptions,
  ) {
    this.agent = attemptAgent(options);
  }

  /** Purges `keys`, as many requests as the cache's limit takes; the attempt fails with the first request that does. */
  async purge(keys: readonly string[], now = new Date()): Promise<DeliveryAttemptDoc> {
    const done = attemptTimer(now);
    const provider = PROVIDERS[this.target.provider];
    let status: number | null = null;
    try {
      for (let i = 0; i < keys.length; i += provider.perRequest) {
        const { method, headers, body } = provider.request(
          keys.slice(i, i + provider.perRequest),
          this.target.token ?? '',
        );
        const res = await request(this.target.url, {
          method,
          body,
          dispatcher: this.agent,
          signal: AbortSignal.timeout(this.options.timeoutMs),
          headers: { ...headers, 'user-agent': 'gateway-purger/1' },
        });
        const text = await res.body.text();
        status = res.statusCode;
        if (status < 200 || status >= 300) return done(status, `HTTP ${status}: ${text.slice(0, 200)}`);
      }
      return done(status, null);
    } catch (err) {
      return done(null, describeFailure(err));
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
