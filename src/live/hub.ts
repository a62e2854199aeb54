// The fan-out: one change stream per process on the database (driver watch()), routed to per-topic
// subscribers (a live blog's messages, a poll's counts). Writes made by any process, or by another system
// straight into MongoDB, reach every process this way. When the stream fails it is reopened
// (src/store/resumable-watch.ts): from its token, or without one when that history is gone
// (ChangeStreamHistoryLost, e.g. after an in-memory engine restarted); either way the gap is filled from the
// store: messages past the last sequence number delivered, and each watched poll as it is now.
import type { ChangeStreamDocument, Document } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type { Logger } from '../logger.js';
import type { LiveBlogMessageDoc, PollDoc } from '../store/content/elements.doc.js';
import { ResumableWatch } from '../store/resumable-watch.js';
import type { Store } from '../store/store.js';
import { Subscriber, type Connection } from './subscriber.js';

export interface LiveBlogUpdate {
  kind: 'added' | 'edited' | 'deleted';
  liveBlogId: string;
  messageId: string;
  message: LiveBlogMessageDoc | null;
}

const WATCHED = ['liveBlogMessages', 'polls'];
const PIPELINE = [
  { $match: { 'ns.coll': { $in: WATCHED }, operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } },
];
/** Codes after which the old token is useless: start over and fill the gap from the store. */
const HISTORY_GONE = new Set([286, 260, 280, 136]);
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
  private watch: ResumableWatch | undefined;

  private constructor(private readonly store: Store) {}

  /** Starts the process's one watch; a store that cannot watch leaves the hub unavailable (logged). */
  static async start(store: Store, log: Logger): Promise<LiveHub> {
    const hub = new LiveHub(store);
    // Real MongoDB keeps pre-images (needed to route a deleted message) only where enabled; best effort.
    await store.db
      .command({ collMod: 'liveBlogMessages', changeStreamPreAndPostImages: { enabled: true } })
      .catch(() => undefined);
    hub.watch = await ResumableWatch.start(store, log, {
      name: 'live change stream',
      pipeline: PIPELINE,
      options: { fullDocument: 'updateLookup', fullDocumentBeforeChange: 'whenAvailable', maxAwaitTimeMS: 1000 },
      forgetsToken: (err) => err instanceof MongoServerError && HISTORY_GONE.has(Number(err.code)),
      onChange: (change) => hub.route(change),
      // Whatever failed, what the new stream does not replay is filled from the store (the fill repeats
      // nothing already published).
      onReopened: () => hub.fillGap(),
      onUnsupported: (err) => {
        hub.available = false;
        log.warn(
          { code: err.code },
          'live updates are unavailable: the store cannot run change streams (MongoDB needs a replica set; compose.yaml runs one)',
        );
      },
    });
    return hub;
  }

  /** A live blog's updates; `kind` narrows them to one kind (only new messages, say). */
  subscribeBlog(
    liveBlogId: string,
    connection: Connection,
    kind?: LiveBlogUpdate['kind'],
  ): AsyncIterableIterator<LiveBlogUpdate> {
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
    for (const set of [...this.topics.values()]) for (const s of [...set]) s.end();
    await this.watch?.close();
  }

  private subscribe(
    topic: string,
    connection: Connection,
    accepts?: (payload: Payload) => boolean,
  ): Subscriber<Payload> {
    let set = this.topics.get(topic);
    if (!set) this.topics.set(topic, (set = new Set()));
    if (topic.startsWith('blog:') && !this.delivered.has(topic.slice(5)))
      this.delivered.set(topic.slice(5), new Delivered());
    const subscriber: Subscriber<Payload> = new Subscriber(
      connection,
      () => {
        set.delete(subscriber);
        if (set.size === 0 && this.topics.get(topic) === set) {
          this.topics.delete(topic);
          // Only a blog's topic owns its delivery record (a poll may share the blog's id).
          if (topic.startsWith('blog:')) this.delivered.delete(topic.slice(5));
        }
      },
      accepts,
    );
    set.add(subscriber);
    return subscriber;
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
      const missed = await this.store
        .collection('liveBlogMessages')
        .find({ $or: since })
        .sort({ liveBlogId: 1, seq: 1 })
        .toArray();
      for (const message of missed) this.publishMessage('added', message);
    }
    const polls = [...this.topics.keys()].filter((t) => t.startsWith('poll:')).map((t) => t.slice(5));
    if (polls.length)
      for (const poll of await this.store
        .collection('polls')
        .find({ _id: { $in: polls } })
        .toArray())
        this.publish(`poll:${poll._id}`, poll);
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
      if (before)
        this.publish(`blog:${before.liveBlogId}`, {
          kind: 'deleted',
          liveBlogId: before.liveBlogId,
          messageId: before._id,
          message: null,
        });
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
