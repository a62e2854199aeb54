// The fan-out: one change stream per process on the database (driver watch()), routed to per-topic
// subscribers (a live blog's messages, a poll's counts). Writes made by any process, or by another system
// straight into MongoDB, reach every process this way. When the stream fails it is resumed from its token;
// when that history is gone (ChangeStreamHistoryLost, e.g. after an in-memory engine restarted), a new
// stream starts and the gap is filled from the store: messages past the last sequence number delivered,
// and each watched poll as it is now.
import type { ChangeStream, ChangeStreamDocument, Document, ResumeToken } from 'mongodb';
import { MongoServerError, MongoServerSelectionError, type MongoClient } from 'mongodb';
import type { Logger } from '../logger.js';
import type { LiveBlogMessageDoc, PollDoc } from '../store/content/elements.doc.js';
import type { Store } from '../store/store.js';
import { Subscriber, type Connection } from './subscriber.js';

export interface LiveBlogUpdate {
  kind: 'added' | 'edited' | 'deleted';
  liveBlogId: string;
  messageId: string;
  message: LiveBlogMessageDoc | null;
}

const WATCHED = ['liveBlogMessages', 'polls'];
const PIPELINE = [{ $match: { 'ns.coll': { $in: WATCHED }, operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } }];
/** Codes after which the old token is useless: start over and fill the gap from the store. */
const HISTORY_GONE = new Set([286, 260, 280, 136]);
/** A server that cannot run change streams (a standalone mongod). */
const NOT_SUPPORTED = new Set([40573, 115]);
const RETRY_MS = 500;
const REORDER_MARGIN = 50;

/** Since when a blog is watched, the ids of its messages recently published (bounded), the highest sequence number. */
class Delivered {
  highSeq = 0;
  readonly since = new Date();
  private readonly ids = new Set<string>();

  /** False when the message was already published. */
  add(id: string, seq: number): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > 4 * REORDER_MARGIN) this.ids.delete(this.ids.values().next().value!);
    this.highSeq = Math.max(this.highSeq, seq);
    return true;
  }
}

type Payload = LiveBlogUpdate | PollDoc;
type Change = ChangeStreamDocument<Document>;

export class LiveHub {
  available = true;
  private readonly topics = new Map<string, Set<Subscriber<Payload>>>();
  /** What was published per live blog, so a gap fill repeats nothing and misses nothing. */
  private readonly delivered = new Map<string, Delivered>();
  private stream: ChangeStream<Document> | undefined;
  private closed = false;
  private running: Promise<void> | undefined;

  private constructor(
    private readonly store: Store,
    private readonly log: Logger,
    /** The hub's own connection (Store.watchClient), closed with it. */
    private client: MongoClient,
  ) {}

  /** Starts the process's one watch; a store that cannot watch leaves the hub unavailable (logged). */
  static async start(store: Store, log: Logger): Promise<LiveHub> {
    const client = store.watchClient();
    try {
      await client.connect();
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    const hub = new LiveHub(store, log, client);
    // Real MongoDB keeps pre-images (needed to route a deleted message) only where enabled; best effort.
    await store.db.command({ collMod: 'liveBlogMessages', changeStreamPreAndPostImages: { enabled: true } }).catch(() => undefined);
    const stream = hub.open(undefined);
    try {
      await stream.tryNext().then((c) => c && hub.route(c));
    } catch (err) {
      await stream.close().catch(() => undefined);
      await client.close().catch(() => undefined);
      if (err instanceof MongoServerError && NOT_SUPPORTED.has(Number(err.code))) {
        hub.available = false;
        log.warn({ code: err.code }, 'live updates are unavailable: the store cannot run change streams (MongoDB needs a replica set; compose.yaml runs one)');
        return hub;
      }
      throw err;
    }
    hub.running = hub.run(stream);
    return hub;
  }

  /** A live blog's updates; `kind` narrows them to one kind (only new messages, say). */
  subscribeBlog(liveBlogId: string, connection: Connection, kind?: LiveBlogUpdate['kind']): AsyncIterableIterator<LiveBlogUpdate> {
    const accepts = kind && ((update: Payload) => (update as LiveBlogUpdate).kind === kind);
    return this.subscribe(`blog:${liveBlogId}`, connection, accepts) as AsyncIterableIterator<LiveBlogUpdate>;
  }

  subscribePoll(pollId: string, connection: Connection): AsyncIterableIterator<PollDoc> {
    return this.subscribe(`poll:${pollId}`, connection) as AsyncIterableIterator<PollDoc>;
  }

  get subscriberCount(): number {
    let n = 0;
    for (const set of this.topics.values()) n += set.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const set of [...this.topics.values()]) for (const s of [...set]) s.end();
    // The client is closed before the loop is awaited: whatever the stream waits on (a getMore, a server
    // selection while the store is away) then ends at once instead of holding the shutdown.
    await this.stream?.close().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    await this.running;
  }

  private subscribe(topic: string, connection: Connection, accepts?: (payload: Payload) => boolean): Subscriber<Payload> {
    let set = this.topics.get(topic);
    if (!set) this.topics.set(topic, (set = new Set()));
    if (topic.startsWith('blog:') && !this.delivered.has(topic.slice(5))) this.delivered.set(topic.slice(5), new Delivered());
    const subscriber: Subscriber<Payload> = new Subscriber(connection, () => {
      set.delete(subscriber);
      if (set.size === 0 && this.topics.get(topic) === set) {
        this.topics.delete(topic);
        // Only a blog's topic owns its delivery record (a poll may share the blog's id).
        if (topic.startsWith('blog:')) this.delivered.delete(topic.slice(5));
      }
    }, accepts);
    set.add(subscriber);
    return subscriber;
  }

  private open(resumeAfter: ResumeToken | undefined): ChangeStream<Document> {
    this.stream = this.client.db(this.store.db.databaseName).watch(PIPELINE, {
      fullDocument: 'updateLookup',
      fullDocumentBeforeChange: 'whenAvailable',
      maxAwaitTimeMS: 1000,
      ...(resumeAfter ? { resumeAfter } : {}),
    });
    return this.stream;
  }

  private async run(first: ChangeStream<Document>): Promise<void> {
    let stream = first;
    let token: ResumeToken | undefined;
    // Set after a failure; cleared once a new stream is established and the gap is filled.
    let gap = false;
    while (!this.closed) {
      try {
        if (gap) {
          const change = await stream.tryNext(); // throws while the store is still away
          await this.fillGap();
          gap = false;
          if (change) this.route(change);
        }
        for await (const change of stream) this.route(change);
        token = stream.resumeToken ?? token;
      } catch (err) {
        if (this.closed) return;
        token = stream.resumeToken ?? token;
        // Whatever failed, what the new stream does not replay is filled from the store (the fill repeats
        // nothing already published); a token whose history is gone is dropped.
        gap = true;
        if (err instanceof MongoServerError && HISTORY_GONE.has(Number(err.code))) token = undefined;
        this.log.warn({ err, gap }, 'live change stream failed; reopening');
        await stream.close().catch(() => undefined);
        if (err instanceof MongoServerSelectionError) {
          // Seen after the store restarted: this client's monitor never found it again while a new client
          // did at once. A fresh client costs one handshake.
          await this.client.close().catch(() => undefined);
          // close() may have closed the old client meanwhile: a new one would then never be closed.
          if (this.closed) return;
          this.client = this.store.watchClient();
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
      if (this.closed) return;
      stream = this.open(token);
    }
  }

  private async fillGap(): Promise<void> {
    const blogs = [...this.topics.keys()].filter((t) => t.startsWith('blog:')).map((t) => t.slice(5));
    if (blogs.length) {
      // Posts may commit out of sequence order: look back a margin below the highest delivered, but not
      // before the blog was first watched (what was posted before that is not news to its subscribers).
      const since = blogs.map((id) => {
        const seen = this.delivered.get(id)!;
        return { liveBlogId: id, seq: { $gt: seen.highSeq - REORDER_MARGIN }, timestamp: { $gte: seen.since } };
      });
      const missed = await this.store.collection('liveBlogMessages').find({ $or: since }).sort({ liveBlogId: 1, seq: 1 }).toArray();
      for (const message of missed) this.publishMessage('added', message);
    }
    const polls = [...this.topics.keys()].filter((t) => t.startsWith('poll:')).map((t) => t.slice(5));
    if (polls.length) for (const poll of await this.store.collection('polls').find({ _id: { $in: polls } }).toArray()) this.publish(`poll:${poll._id}`, poll);
  }

  private route(change: Change): void {
    if (!('ns' in change) || !change.ns || !('coll' in change.ns)) return;
    const coll = change.ns.coll;
    if (coll === 'polls') {
      const poll = 'fullDocument' in change ? (change.fullDocument as PollDoc | null | undefined) : undefined;
      if (poll) this.publish(`poll:${poll._id}`, poll);
      return;
    }
    if (coll !== 'liveBlogMessages') return;
    if (change.operationType === 'insert') this.publishMessage('added', change.fullDocument as LiveBlogMessageDoc);
    else if (change.operationType === 'update' || change.operationType === 'replace') {
      const message = change.fullDocument as LiveBlogMessageDoc | null | undefined;
      if (message) this.publishMessage('edited', message);
    } else if (change.operationType === 'delete') {
      const before = change.fullDocumentBeforeChange as LiveBlogMessageDoc | undefined;
      if (before) this.publish(`blog:${before.liveBlogId}`, { kind: 'deleted', liveBlogId: before.liveBlogId, messageId: before._id, message: null });
    }
  }

  private publishMessage(kind: 'added' | 'edited', message: LiveBlogMessageDoc): void {
    const blog = message.liveBlogId;
    if (kind === 'added') {
      // Only blogs someone watches are tracked; a gap fill may repeat what the stream also brings.
      const seen = this.delivered.get(blog);
      if (!seen?.add(message._id, message.seq)) return;
    }
    this.publish(`blog:${blog}`, { kind, liveBlogId: blog, messageId: message._id, message });
  }

  private publish(topic: string, payload: Payload): void {
    const set = this.topics.get(topic);
    if (!set) return;
    // A subscriber dropped meanwhile leaves the set; iterating a Set tolerates that.
    for (const subscriber of set) subscriber.push(payload);
  }
}
