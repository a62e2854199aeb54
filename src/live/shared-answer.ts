// What anonymous subscribers of one operation share per event: its answer, executed once, serialised and UTF-8
// encoded once, then framed for each socket under the subscription's own id (a copy of two byte ranges, one
// socket write). A subscriber whose earlier answer is still being computed holds the later ones back, so every
// socket gets its answers in the order of their events, with no promise per subscriber and event.
import type { Logger } from '../logger.js';
import type { Connection } from './subscriber.js';

const CLOSING_BRACE = 0x7d;

export class SharedAnswer {
  /** The payload as sent: undefined while it is computed, null when computing it failed (logged once). */
  bytes: Buffer | null | undefined;
  private waiting: Outbox[] | undefined;

  constructor(text: string | Promise<string>, log: Logger) {
    if (typeof text === 'string') {
      this.bytes = Buffer.from(text);
      return;
    }
    this.waiting = [];
    void text.then(
      (ready) => this.settle(Buffer.from(ready)),
      (err: unknown) => {
        log.error({ err }, 'live: an event could not be answered');
        this.settle(null);
      },
    );
  }

  /** `outbox` is flushed once this answer is ready. */
  wait(outbox: Outbox): void {
    this.waiting!.push(outbox);
  }

  private settle(bytes: Buffer | null): void {
    this.bytes = bytes;
    const waiting = this.waiting!;
    this.waiting = undefined;
    for (const outbox of waiting) outbox.flush();
  }
}

/** One subscription's way out: its `next` messages, in event order, until the subscription ends. */
export class Outbox {
  /** `{"id":<subscription id>,"type":"next","payload":` as bytes: what precedes every answer. */
  private readonly prefix: Buffer;
  /** The first answer not written yet because it is still being computed (most of the time, none). */
  private head: SharedAnswer | undefined;
  /** Answers after `head`, held back so that they go out after it (rarely any: no array for the usual case). */
  private rest: SharedAnswer[] | undefined;

  constructor(
    subscriptionId: string,
    private readonly connection: Connection,
    private readonly subscription: { readonly ended: boolean },
  ) {
    this.prefix = Buffer.from(`{"id":${JSON.stringify(subscriptionId)},"type":"next","payload":`);
  }

  offer(answer: SharedAnswer): void {
    if (this.head === undefined) {
      if (answer.bytes !== undefined) return this.write(answer.bytes);
      this.head = answer;
    } else (this.rest ??= []).push(answer);
    if (answer.bytes === undefined) answer.wait(this);
  }

  /** Writes the answers that are ready, up to the first that is not. */
  flush(): void {
    while (this.head?.bytes !== undefined) {
      const bytes = this.head.bytes;
      this.head = this.rest?.shift();
      if (this.rest?.length === 0) this.rest = undefined;
      this.write(bytes);
    }
  }

  private write(payload: Buffer | null): void {
    // A subscription that ended (completed, or its socket closed) sends nothing more.
    if (payload === null || this.subscription.ended) return;
    const prefix = this.prefix;
    const message = Buffer.allocUnsafe(prefix.length + payload.length + 1);
    message.set(prefix, 0);
    message.set(payload, prefix.length);
    message[message.length - 1] = CLOSING_BRACE;
    this.connection.send(message);
  }
}
