// One database change stream kept open for the life of a process (the live hub's fan-out, the response
// cache's invalidation): on a client of its own (Store.watchClient), reopened after any failure — from its
// resume token while the history still has it, without one otherwise (events in between are then lost: a
// "gap" its owner has to make good) — with the client replaced when server selection fails (after an engine
// restart the old client's monitor was seen never to find the store again, while a new client did at once).
import type { ChangeStreamDocument, ChangeStreamOptions, Document, MongoClient, ResumeToken } from 'mongodb';
import { ChangeStream, MongoServerError, MongoServerSelectionError } from 'mongodb';
import type { Logger } from '../logger.js';
import type { Store } from './store.js';

/** A server that cannot run change streams (a standalone mongod). */
const NOT_SUPPORTED = new Set([40573, 115]);
const RETRY_MS = 500;

export interface WatchSpec {
  /** Names the stream in the log ("<name> failed; reopening"). */
  name: string;
  pipeline: Document[];
  options: Omit<ChangeStreamOptions, 'resumeAfter' | 'startAfter' | 'startAtOperationTime'>;
  /**
   * Where the first stream starts (a token its owner kept from an earlier run); one the store no longer has
   * (`forgetsToken`) is dropped and the stream starts at the present, reported through `onReopened({ gap: true })`.
   */
  resumeAfter?: ResumeToken;
  /** True when, after `err`, the resume token can no longer be used: the next stream starts without one. */
  forgetsToken(err: unknown): boolean;
  onChange(change: ChangeStreamDocument<Document>): void;
  /** A stream failed (it is reopened after a short wait). */
  onFailure?(err: unknown): void;
  /**
   * A stream that replaced an ended one is established, before any of its changes is handed over; `gap`: it
   * started without a resume token, so changes made meanwhile were not seen.
   */
  onReopened?(reopened: { gap: boolean }): Promise<void> | void;
  /** The store cannot run change streams: nothing is watched (start resolves, `watching` is false). */
  onUnsupported?(err: MongoServerError): void;
}

export class ResumableWatch {
  private stream: ChangeStream<Document> | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  private constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly spec: WatchSpec,
    private client: MongoClient,
  ) {}

  /**
   * Connects, opens the stream and waits until the server has accepted it: every change made from then on reaches
   * `onChange`. Its first wait for changes (up to maxAwaitTimeMS) goes on after this resolves. Throws what connecting
   * or opening throws, except the store's not supporting change streams.
   */
  static async start(store: Store, log: Logger, spec: WatchSpec): Promise<ResumableWatch> {
    const client = store.watchClient();
    try {
      await client.connect();
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    const watch = new ResumableWatch(store, log, spec, client);
    let stream = watch.open(spec.resumeAfter);
    let first: FirstRead;
    try {
      try {
        first = await accepted(stream);
      } catch (err) {
        if (!spec.resumeAfter || !spec.forgetsToken(err)) throw err;
        log.warn({ err }, `${spec.name}: the kept resume token is no longer usable; starting at the present`);
        await stream.close().catch(() => undefined);
        stream = watch.open(undefined);
        first = await accepted(stream);
        await spec.onReopened?.({ gap: true });
      }
    } catch (err) {
      watch.closed = true;
      await stream.close().catch(() => undefined);
      await client.close().catch(() => undefined);
      if (err instanceof MongoServerError && NOT_SUPPORTED.has(Number(err.code))) {
        spec.onUnsupported?.(err);
        return watch;
      }
      throw err;
    }
    watch.running = watch.run(stream, first.read);
    return watch;
  }

  /** False when the store cannot run change streams, and once closed. */
  get watching(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    // The client is closed before the loop is awaited: whatever the stream waits on (a getMore, a server
    // selection while the store is away) then ends at once instead of holding the shutdown.
    await this.stream?.close().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    await this.running;
  }

  private open(resumeAfter: ResumeToken | undefined): ChangeStream<Document> {
    this.stream = this.client
      .db(this.store.db.databaseName)
      .watch(this.spec.pipeline, { ...this.spec.options, ...(resumeAfter ? { resumeAfter } : {}) });
    return this.stream;
  }

  /** `pending`: the first stream's first read, under way since the start. */
  private async run(
    first: ChangeStream<Document>,
    pending: Promise<ChangeStreamDocument<Document> | null> | undefined,
  ): Promise<void> {
    const { spec } = this;
    let stream = first;
    let token: ResumeToken | undefined;
    let reopened = false;
    while (!this.closed) {
      try {
        if (pending) {
          const read = pending;
          pending = undefined;
          const change = await read;
          if (change) spec.onChange(change);
        }
        if (reopened) {
          const change = await stream.tryNext(); // throws while the store is still away
          await spec.onReopened?.({ gap: token === undefined });
          reopened = false;
          if (change) spec.onChange(change);
        }
        for await (const change of stream) spec.onChange(change);
        token = stream.resumeToken ?? token;
      } catch (err) {
        if (this.closed) return;
        token = spec.forgetsToken(err) ? undefined : (stream.resumeToken ?? token);
        spec.onFailure?.(err);
        this.log.warn({ err, gap: token === undefined }, `${spec.name} failed; reopening`);
        await stream.close().catch(() => undefined);
        if (err instanceof MongoServerSelectionError) {
          await this.client.close().catch(() => undefined);
          // close() may have closed the old client meanwhile: a new one would then never be closed.
          if (this.closed) return;
          this.client = this.store.watchClient();
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
      if (this.closed) return;
      reopened = true;
      stream = this.open(token);
    }
  }
}

/** A stream's first read, left running once the server has accepted the stream. */
interface FirstRead {
  read: Promise<ChangeStreamDocument<Document> | null>;
}

/**
 * Resolves once the server has accepted `stream` (the aggregate that opens it has answered: the stream's start is
 * fixed, and every change after it is in the stream), or rejects with what opening it failed with. The stream's
 * first read is begun here and handed back still running: with no change to report, the server only answers it
 * after maxAwaitTimeMS. The driver stores the answer's postBatchResumeToken as the stream's resume token, and says
 * so; a server that sends none (or a first batch with changes in it) is known to have accepted the stream when the
 * read itself answers.
 */
function accepted(stream: ChangeStream<Document>): Promise<FirstRead> {
  const read = stream.tryNext();
  // Its failure after the start is the running loop's to handle (it awaits it first); none goes unhandled meanwhile.
  read.catch(() => undefined);
  return new Promise((resolve, reject) => {
    const done = (): void => {
      stream.off(ChangeStream.RESUME_TOKEN_CHANGED, done);
      resolve({ read });
    };
    stream.on(ChangeStream.RESUME_TOKEN_CHANGED, done);
    read.then(done, (err: unknown) => {
      stream.off(ChangeStream.RESUME_TOKEN_CHANGED, done);
      reject(err as Error);
    });
  });
}
