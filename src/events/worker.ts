// The delivery loop of one gateway process: finds due deliveries in the outbox, claims each attempt (outbox.ts),
// sends it, records the outcome, and schedules a retry with exponential back-off and full jitter until the
// delivery's retry window closes. An endpoint that has not taken a delivery for `disableAfterMs` is disabled,
// with the reason on it. Purges for the cache in front are sent apart: once one is due, every purge queued so
// far is claimed with it and their keys go out in one request (sendPurges).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import type { DeliveryAttemptDoc, WebhookDeliveryDoc, WebhookEndpointDoc } from '../store/webhooks/webhook.docs.js';
import {
  claim,
  dueDeliveries,
  giveUpUnsent,
  nextPurgeRetry,
  purgesToSend,
  recordAttempt,
  removeFinished,
  waitsForEarlier,
} from './outbox.js';
import { keysOf, PURGE_ENDPOINT_ID, purgeEndpoint, type Purger } from './purger.js';
import type { WebhookSender } from './sender.js';
import { signingSecrets } from './signing.js';

export interface WorkerOptions {
  retryBaseMs: number;
  retryMaxMs: number;
  disableAfterMs: number;
  pollMs: number;
  /** Delivered and failed deliveries are removed this long after their last change. */
  keepForMs: number;
  /** How long a claimed attempt is this process's: longer than an attempt can take. */
  leaseMs: number;
  /**
   * Whether the periodic scan has anything to look for: with no endpoint nothing is queued, and a gateway
   * nobody subscribed to reads nothing from the outbox. Queued events still wake the worker at once.
   */
  active: () => Promise<boolean>;
  /** Sends the deliveries of the built-in purge endpoint, when CDN_PURGE_URL is set. */
  purger?: { url: string; purger: Purger };
}

/** Deliveries sent at once by one process. */
const CONCURRENCY = 16;
/** Purge deliveries claimed together at most (their keys may still need several requests). */
const PURGE_BATCH = 1_000;
/** Finished deliveries past their keeping time are looked for at most this often (and never less often). */
const PRUNE_EVERY_MS = 60_000;

/** Full jitter: a random wait between 0 and the exponential bound, so that retries of many spread out. */
const retryDelay = (attempt: number, baseMs: number, maxMs: number): number =>
  Math.random() * Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40));

export class DeliveryWorker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private prunedAt = 0;
  private pruning: Promise<void> | undefined;
  private purging: Promise<void> | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private purgeWakeAt = 0;

  constructor(
    private readonly store: Store,
    private readonly sender: WebhookSender,
    private readonly log: Logger,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.options.active().then(
        (active) => {
          if (!active) return;
          this.wake();
          this.prune();
        },
        (err: unknown) => this.log.warn({ err }, 'webhook endpoints could not be read'),
      );
    }, this.options.pollMs);
    this.wake();
  }

  /**
   * Looks for due deliveries in `ms` (purges were queued, due then); one such wake-up waits at a time, the
   * earliest asked for.
   */
  wakeIn(ms: number): void {
    if (this.stopped) return;
    const at = Date.now() + ms;
    if (this.purgeTimer && this.purgeWakeAt <= at) return;
    clearTimeout(this.purgeTimer);
    this.purgeWakeAt = at;
    this.purgeTimer = setTimeout(() => {
      this.purgeTimer = undefined;
      this.wake();
    }, ms);
  }

  /** Looks for due deliveries now (new events were queued). */
  wake(): void {
    if (this.stopped) return;
    this.sendPurges();
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = this.scan()
      .catch((err: unknown) => this.log.warn({ err }, 'webhook delivery scan failed'))
      .finally(() => {
        this.scanning = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Removes what the outbox no longer needs, so it does not grow forever: every process does it now and then (the
   * removal is one conditional delete, the same whoever runs it).
   */
  private prune(): void {
    const now = Date.now();
    if (this.pruning || now - this.prunedAt < Math.min(PRUNE_EVERY_MS, this.options.keepForMs)) return;
    this.prunedAt = now;
    this.pruning = removeFinished(this.store, new Date(now - this.options.keepForMs))
      .then((removed) => {
        if (removed > 0) this.log.debug({ removed }, 'finished webhook deliveries removed');
      })
      .catch((err: unknown) => this.log.warn({ err }, 'finished webhook deliveries could not be removed'))
      .finally(() => (this.pruning = undefined));
  }

  /** Stops claiming and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.purgeTimer);
    await this.pruning;
    await this.purging;
    await this.scanning;
    await Promise.all(this.inFlight.values());
  }

  private async scan(): Promise<void> {
    const free = CONCURRENCY - this.inFlight.size;
    if (free <= 0) return;
    // With a purger, its deliveries are sent by sendPurges; without one, they are given up below.
    const due = await dueDeliveries(this.store, new Date(), free * 4, this.options.purger && PURGE_ENDPOINT_ID);
    const endpoints = new Map<string, WebhookEndpointDoc | null>();
    for (const delivery of due) {
      if (this.stopped || this.inFlight.size >= CONCURRENCY) return;
      if (this.inFlight.has(delivery._id) || (await waitsForEarlier(this.store, delivery))) continue;
      if (!endpoints.has(delivery.endpointId))
        endpoints.set(delivery.endpointId, await this.endpointOf(delivery.endpointId));
      const endpoint = endpoints.get(delivery.endpointId) ?? null;
      const now = new Date();
      if (!endpoint?.enabled) {
        const why = endpoint
          ? `endpoint disabled: ${endpoint.disabledReason ?? 'by an administrator'}`
          : 'endpoint deleted';
        await giveUpUnsent(this.store, delivery, why, now);
        continue;
      }
      const claimed = await claim(this.store, delivery, this.owner, now, this.options.leaseMs);
      if (!claimed) continue;
      const sending = this.attempt(claimed, endpoint)
        .catch((err: unknown) => this.log.warn({ err, delivery: claimed._id }, 'webhook delivery attempt failed'))
        .finally(() => {
          this.inFlight.delete(claimed._id);
          // The next delivery of the same entity may be waiting for this one.
          this.wake();
        });
      this.inFlight.set(claimed._id, sending);
    }
  }

  /** Sends the queued purges as one, once one of them is due; one batch at a time per process. */
  private sendPurges(): void {
    const purger = this.options.purger?.purger;
    if (!purger || this.purging) return;
    let full = false;
    this.purging = this.purgeBatch(purger)
      .then((more) => {
        full = more;
      })
      .catch((err: unknown) => this.log.warn({ err }, 'CDN purge batch failed'))
      .finally(() => {
        this.purging = undefined;
        if (full) this.wake();
      });
  }

  /** True when the batch was full (more may wait). */
  private async purgeBatch(purger: Purger): Promise<boolean> {
    const now = new Date();
    const queued = await purgesToSend(this.store, PURGE_ENDPOINT_ID, now, PURGE_BATCH);
    const due = (d: WebhookDeliveryDoc) =>
      d.status === 'pending' ? d.nextAttemptAt <= now : d.leaseUntil !== null && d.leaseUntil <= now;
    if (!queued.some(due)) {
      // The earliest one not yet due wakes this process then (another process may have queued it), or the
      // earliest retry when nothing new waits.
      const next = queued.length
        ? Math.min(...queued.map((d) => d.nextAttemptAt.getTime()))
        : (await nextPurgeRetry(this.store, PURGE_ENDPOINT_ID))?.getTime();
      if (next !== undefined && Number.isFinite(next)) this.wakeIn(Math.max(0, next - now.getTime()));
      return false;
    }
    // The lease covers every request the batch may take, one after the other.
    const requests = purger.requestsAtMost([...new Set(queued.flatMap((d) => keysOf(d.body)))]);
    const leaseMs = this.options.leaseMs * Math.max(1, requests);
    const claimed = (await Promise.all(queued.map((d) => claim(this.store, d, this.owner, now, leaseMs)))).filter(
      (d): d is WebhookDeliveryDoc => d !== null,
    );
    if (claimed.length === 0) return false;
    const keys = [...new Set(claimed.flatMap((d) => keysOf(d.body)))];
    const { attempt, failed } = await purger.purge(keys, now);
    if (attempt.error)
      this.log.warn({ error: attempt.error, keys: keys.length, failed: failed.size }, 'CDN purge failed');
    // A queued purge is delivered when each of its keys was purged; the others share one retry time, so that
    // they stay together.
    const { retryBaseMs, retryMaxMs } = this.options;
    const missed = (d: WebhookDeliveryDoc): boolean => keysOf(d.body).some((k) => failed.has(k));
    const attempts = Math.max(...claimed.filter(missed).map((d) => d.attempts), 1);
    const retryAt = new Date(Date.now() + retryDelay(attempts, retryBaseMs, retryMaxMs));
    const took = { ...attempt, error: null };
    await Promise.all(
      claimed.map(async (d) => {
        const result = missed(d) ? attempt : took;
        if (!(await recordAttempt(this.store, d, this.owner, result, retryAt < d.giveUpAt ? retryAt : null)))
          this.log.warn({ delivery: d._id }, 'CDN purge taken over by another process');
      }),
    );
    if (failed.size) this.wakeIn(Math.max(0, retryAt.getTime() - Date.now()));
    return queued.length === PURGE_BATCH;
  }

  private endpointOf(id: string): Promise<WebhookEndpointDoc | null> {
    if (id !== PURGE_ENDPOINT_ID) return this.store.collection('webhookEndpoints').findOne({ _id: id });
    // Purges queued while CDN_PURGE_URL was set are given up once it is not.
    const purger = this.options.purger;
    return Promise.resolve(purger ? purgeEndpoint(purger.url) : null);
  }

  private async attempt(claimed: WebhookDeliveryDoc, endpoint: WebhookEndpointDoc): Promise<void> {
    const now = new Date();
    const attempt = await this.sender.send(
      { id: claimed.eventId, url: endpoint.url, body: claimed.body, secrets: signingSecrets(endpoint, now) },
      now,
    );
    const { retryBaseMs, retryMaxMs } = this.options;
    const retryAt = new Date(Date.now() + retryDelay(claimed.attempts, retryBaseMs, retryMaxMs));
    const recorded = await recordAttempt(
      this.store,
      claimed,
      this.owner,
      attempt,
      retryAt < claimed.giveUpAt ? retryAt : null,
    );
    if (!recorded) this.log.warn({ delivery: claimed._id }, 'webhook delivery taken over by another process');
    await this.endpointHealth(endpoint, attempt);
  }

  private async endpointHealth(endpoint: WebhookEndpointDoc, attempt: DeliveryAttemptDoc): Promise<void> {
    const endpoints = this.store.collection('webhookEndpoints');
    if (attempt.error === null) {
      await endpoints.updateOne({ _id: endpoint._id, failingSince: { $ne: null } }, { $set: { failingSince: null } });
      return;
    }
    await endpoints.updateOne({ _id: endpoint._id, failingSince: null }, { $set: { failingSince: attempt.at } });
    const current = await endpoints.findOne({ _id: endpoint._id });
    const since = current?.failingSince;
    if (!current?.enabled || !since || attempt.at.getTime() - since.getTime() < this.options.disableAfterMs) return;
    const disabledReason = `no successful delivery since ${since.toISOString()}; last attempt: ${attempt.error}`;
    const disabled = await endpoints.updateOne(
      { _id: endpoint._id, enabled: true, failingSince: since },
      { $set: { enabled: false, disabledReason, updatedAt: attempt.at } },
    );
    if (disabled.modifiedCount === 1)
      // The origin only: a URL's user info or query may hold a credential.
      this.log.warn(
        { endpoint: endpoint._id, origin: new URL(endpoint.url).origin },
        'webhook endpoint disabled: failing for too long',
      );
  }
}
