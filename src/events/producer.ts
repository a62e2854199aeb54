// Fills the outbox from the store's change stream: each change becomes its events (change-events.ts) and each
// event one delivery per enabled endpoint that asked for its type. Every gateway runs this; ids are derived
// from the change's position in the stream, so the same delivery inserted by several processes is stored once.
// The position of the last change handled is kept in the store (only ever moved forward): after a restart,
// or a crash, the stream resumes there and nothing written meanwhile is missed.
import { createHash } from 'node:crypto';
import { MongoServerError, type ChangeStreamDocument, type Document, type ResumeToken } from 'mongodb';
import type { Logger } from '../logger.js';
import { ResumableWatch } from '../store/resumable-watch.js';
import { allDuplicateKeys } from '../store/errors.js';
import type { Store } from '../store/store.js';
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from '../store/webhooks/webhook.docs.js';
import { EVENT_COLLECTIONS, eventsOfChange } from './change-events.js';
import { PURGE_ENDPOINT_ID } from './purger.js';

/** The settings document holding the stream position the outbox is complete up to. */
export const POSITION_SETTING = 'webhooks.streamPosition';
/** Changes that make no delivery move the kept position at most this often. */
const POSITION_EVERY_MS = 1_000;

export interface ProducerOptions {
  retryForMs: number;
  /** Built-in endpoints beside the stored ones (the CDN purger's). */
  builtIn: readonly WebhookEndpointDoc[];
  /** Deliveries to the built-in purge endpoint wait this long, so that those of a burst go out together. */
  purgeWindowMs: number;
  /** Called after deliveries were queued; `purgesDueInMs` when purges were among them. */
  queued(purgesDueInMs?: number): void;
}

const tokenData = (change: ChangeStreamDocument<Document>): string => String((change._id as { _data?: unknown })._data);

/** `msg_` and 27 characters: the same for a change's n-th event in every process. */
const eventId = (position: string, index: number): string =>
  `msg_${createHash('sha256').update(`${position}:${index}`).digest('base64url').slice(0, 27)}`;

export class EventProducer {
  private chain: Promise<void> = Promise.resolve();
  private endpoints: Promise<WebhookEndpointDoc[]> | undefined;
  private watch: ResumableWatch | undefined;
  private positionSavedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly options: ProducerOptions,
  ) {}

  async start(): Promise<boolean> {
    const kept = await this.store.collection('settings').findOne({ _id: POSITION_SETTING });
    this.watch = await ResumableWatch.start(this.store, this.log, {
      name: 'webhook event stream',
      pipeline: [
        { $match: { 'ns.coll': { $in: [...EVENT_COLLECTIONS, 'webhookEndpoints'] } } },
        { $match: { operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } },
      ],
      options: { fullDocument: 'whenAvailable', fullDocumentBeforeChange: 'whenAvailable', maxAwaitTimeMS: 500 },
      resumeAfter: (kept?.value as ResumeToken | undefined) ?? undefined,
      forgetsToken: (err) => err instanceof MongoServerError && !err.hasErrorLabel('ResumableChangeStreamError'),
      onChange: (change) => {
        this.chain = this.chain.then(() =>
          this.handle(change).catch((err: unknown) => this.log.error({ err }, 'webhook events of a change lost')),
        );
      },
      onReopened: ({ gap }) => {
        if (gap) this.log.warn('webhook event stream restarted without its position: changes meanwhile make no events');
      },
      onUnsupported: (err) =>
        this.log.warn({ code: err.code }, 'webhooks are unavailable: the store cannot run change streams'),
    });
    // Read once the stream runs (a change after this read resets it), so that the worker's periodic question
    // reads nothing until endpoints change.
    await this.allEndpoints();
    return this.watch.watching;
  }

  async stop(): Promise<void> {
    await this.watch?.close();
    await this.chain;
  }

  private async handle(change: ChangeStreamDocument<Document>): Promise<void> {
    const coll = 'ns' in change && change.ns && 'coll' in change.ns ? change.ns.coll : undefined;
    if (coll === 'webhookEndpoints') this.endpoints = undefined;
    const events = eventsOfChange(change);
    const position = tokenData(change);
    const endpoints = events.length ? await this.enabledEndpoints() : [];
    const now = new Date();
    const at = change.operationType !== 'invalidate' && 'wallTime' in change && change.wallTime ? change.wallTime : now;
    const docs: WebhookDeliveryDoc[] = [];
    const purgesDueAt = new Date(now.getTime() + this.options.purgeWindowMs);
    events.forEach((event, index) => {
      const id = eventId(position, index);
      const body = JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
      for (const endpoint of endpoints.filter((e) => e.eventTypes.includes(event.type)))
        docs.push({
          _id: `${id}.${endpoint._id}`,
          eventId: id,
          endpointId: endpoint._id,
          type: event.type,
          entity: event.entity,
          seq: `${position}:${String(index).padStart(3, '0')}`,
          body,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: endpoint._id === PURGE_ENDPOINT_ID ? purgesDueAt : now,
          leaseOwner: null,
          leaseUntil: null,
          giveUpAt: new Date(now.getTime() + this.options.retryForMs),
          lastAttempt: null,
          log: [],
          createdAt: now,
          updatedAt: now,
        });
    });
    if (docs.length) {
      await this.store
        .collection('webhookDeliveries')
        .insertMany(docs, { ordered: false })
        .catch((err: unknown) => {
          if (!allDuplicateKeys(err)) throw err;
        });
      this.options.queued(
        docs.some((d) => d.endpointId === PURGE_ENDPOINT_ID) ? this.options.purgeWindowMs : undefined,
      );
    }
    if (docs.length || Date.now() - this.positionSavedAt >= POSITION_EVERY_MS) await this.savePosition(change._id);
  }

  /**
   * Whether any endpoint exists, enabled or not (a disabled one's queued deliveries are still to be given up):
   * read once, then again only after the stream saw endpoints change.
   */
  async anyEndpoint(): Promise<boolean> {
    return (await this.allEndpoints()).length > 0;
  }

  private async enabledEndpoints(): Promise<WebhookEndpointDoc[]> {
    return (await this.allEndpoints()).filter((e) => e.enabled);
  }

  private allEndpoints(): Promise<WebhookEndpointDoc[]> {
    this.endpoints ??= this.store
      .collection('webhookEndpoints')
      .find({})
      .toArray()
      .then((stored) => [...this.options.builtIn, ...stored]);
    this.endpoints.catch(() => (this.endpoints = undefined));
    return this.endpoints;
  }

  private async savePosition(token: ResumeToken): Promise<void> {
    this.positionSavedAt = Date.now();
    const data = String((token as { _data?: unknown })._data);
    const settings = this.store.collection('settings');
    const moved = await settings.updateOne(
      { _id: POSITION_SETTING, 'value._data': { $lt: data } },
      { $set: { value: token, updatedAt: new Date() } },
    );
    if (moved.matchedCount === 0)
      await settings.insertOne({ _id: POSITION_SETTING, value: token, updatedAt: new Date() }).catch((err: unknown) => {
        if (!allDuplicateKeys(err)) throw err;
      });
  }
}
