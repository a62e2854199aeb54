// Outgoing webhooks in one gateway process: the producer that turns store changes into queued deliveries and
// the worker that sends them. Several processes on one store share the queue (see outbox.ts).
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import { EventProducer } from './producer.js';
import { Purger, purgeEndpoint } from './purger.js';
import { WebhookSender } from './sender.js';
import { targetGuard } from './target-guard.js';
import { DeliveryWorker } from './worker.js';

export interface Webhooks {
  stop(): Promise<void>;
}

/** Time a claimed attempt stays this process's beyond its own timeout: writing its outcome to the store. */
const LEASE_MARGIN_MS = 5_000;

/**
 * `cdn.purgeUrl`: CDN_PURGE_URL; each cache-purge event is also queued for it, and the purges queued within
 * `cdn.purgeWindowMs` go out together, as the cache of `cdn.purgeProvider` takes them (purger.ts).
 */
export async function startWebhooks(
  store: Store,
  config: Config['webhooks'],
  log: Logger,
  cdn?: Pick<Config['cdn'], 'purgeUrl' | 'purgeWindowMs' | 'purgeProvider' | 'purgeToken'>,
): Promise<Webhooks> {
  const purgeUrl = cdn?.purgeUrl;
  const timeouts = { connectTimeoutMs: config.connectTimeoutMs, timeoutMs: config.timeoutMs };
  const sender = new WebhookSender(targetGuard(config.allowTargets), timeouts);
  const purger =
    purgeUrl === undefined
      ? undefined
      : new Purger({ url: purgeUrl, provider: cdn!.purgeProvider, token: cdn!.purgeToken }, timeouts);
  const producer: EventProducer = new EventProducer(store, log, {
    retryForMs: config.retryForMs,
    builtIn: purgeUrl === undefined ? [] : [purgeEndpoint(purgeUrl)],
    purgeWindowMs: cdn?.purgeWindowMs ?? 0,
    queued: (purgesDueInMs) => {
      worker.wake();
      if (purgesDueInMs !== undefined) worker.wakeIn(purgesDueInMs);
    },
  });
  const worker = new DeliveryWorker(store, sender, log, {
    ...config,
    leaseMs: config.timeoutMs + LEASE_MARGIN_MS,
    active: () => producer.anyEndpoint(),
    purger: purger && { url: purgeUrl!, purger },
  });
  await producer.start();
  worker.start();
  return {
    async stop() {
      await producer.stop();
      await worker.stop();
      await sender.close();
      await purger?.close();
    },
  };
}
