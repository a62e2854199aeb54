// Purges of a cache in front (Varnish with the xkey module, deploy/varnish/default.vcl): each cache-purge event
// becomes one `PURGE` request to CDN_PURGE_URL naming its keys in `xkey-purge`. The purges travel the webhook
// outbox as deliveries to a built-in endpoint (so they survive restarts, go out once across processes and are
// retried like any delivery). The URL is the operator's own setting, not an administrator's through the API, and a
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

/** The keys a cache-purge event's body names. */
function keysOf(body: string): string[] {
  const keys = (JSON.parse(body) as { data?: { keys?: unknown } }).data?.keys;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}

export class Purger {
  private readonly agent: Agent;

  constructor(
    private readonly url: string,
    private readonly options: SenderOptions,
  ) {
    this.agent = attemptAgent(options);
  }

  async purge(body: string, now = new Date()): Promise<DeliveryAttemptDoc> {
    const done = attemptTimer(now);
    try {
      const res = await request(this.url, {
        method: 'PURGE' as Dispatcher.HttpMethod,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: { 'xkey-purge': keysOf(body).join(' '), 'user-agent': 'gateway-purger/1' },
      });
      const text = await res.body.text();
      return res.statusCode >= 200 && res.statusCode < 300
        ? done(res.statusCode, null)
        : done(res.statusCode, `HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    } catch (err) {
      return done(null, describeFailure(err));
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
