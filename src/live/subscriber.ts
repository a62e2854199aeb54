// One subscriber's queue: an async iterator the GraphQL subscription reads from, fed by the hub. It is
// bounded: a subscriber whose queue fills (or whose socket has too much unsent data) is dropped, so a
// slow client never holds memory or delays the others; the hub's publish never waits for anyone. A subscriber
// may instead hand each event straight to a target (`deliverTo`): then nothing is queued, and its iterator
// only says when the subscription ends.
export interface Connection {
  /** Writes one protocol message (serialised and UTF-8 encoded already) to the socket as a text frame. */
  send(data: Buffer): void;
  /** True when the socket holds more unsent bytes than it may. */
  congested(): boolean;
  /** Ends the connection of a subscriber that cannot keep up. */
  drop(reason: string): void;
}

const MAX_QUEUED = 256;

export class Subscriber<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private done = false;
  private target: { deliver(value: T): void } | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly onEnd: () => void,
    /** Which of the topic's events this subscriber takes (all when absent). */
    private readonly accepts?: (value: T) => boolean,
  ) {}

  /** Hands an event over without waiting; drops the subscriber instead of queueing without bound. */
  push(value: T): void {
    if (this.done || (this.accepts && !this.accepts(value))) return;
    if (this.target) return this.target.deliver(value);
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = undefined;
      resolve({ value, done: false });
      return;
    }
    if (this.queue.length >= MAX_QUEUED || this.connection.congested()) {
      this.end();
      this.connection.drop('subscriber too slow');
      return;
    }
    this.queue.push(value);
  }

  /** True once the subscription ended (completed, dropped, or its connection closed). */
  get ended(): boolean {
    return this.done;
  }

  /** From now on each event goes to `target` as it comes; `next()` then resolves only when the subscription ends. */
  deliverTo(target: { deliver(value: T): void }): void {
    this.target = target;
    for (const value of this.queue.splice(0)) target.deliver(value);
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiter = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.queue.length = 0;
    this.waiter?.({ value: undefined, done: true });
    this.waiter = undefined;
    this.onEnd();
  }
}
