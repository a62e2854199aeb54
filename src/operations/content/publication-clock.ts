// Scheduled publishing (docs/api.md, "Editorial workflow"): every process keeps a timer set to the next publish or
// unpublish time in the store and, when it fires, makes the changes then due. Each change is one conditional update
// (store/content/publication.ts), so when every process tries, exactly one makes it and records it; the write then
// reaches readers like any other: the change stream evicts cached answers and feeds live subscribers. Nothing is
// held in memory that the store does not hold: a process started late makes what came due while none ran. Schedules
// set through another process arrive by a change stream on articles and issues, and a slow poll covers a store
// that cannot run one.
import type { Logger } from '../../logger.js';
import { applyDueChanges, nextTimedChange } from '../../store/content/publication.js';
import { ResumableWatch } from '../../store/resumable-watch.js';
import type { Store } from '../../store/store.js';

const POLL_MS = 30_000;
/** Node's timers take at most 2^31-1 ms; a later time is armed again when this one fires. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export class PublicationClock {
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private watch: ResumableWatch | undefined;
  private next: number | undefined;
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private busy = false;
  private stopped = false;
  private readonly earlier: Array<() => void> = [];
  private roundMade!: () => void;
  /** Resolves when the first round of changes due at start has been made (or failed, and is retried). */
  private readonly firstRound = new Promise<void>((resolve) => (this.roundMade = resolve));

  private constructor(
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  /** Makes what is due now, arms the timer, and follows schedule changes made anywhere. */
  static async start(store: Store, log: Logger): Promise<PublicationClock> {
    const clock = new PublicationClock(store, log);
    // The stream first: a schedule changed after the first read below then reaches the clock too.
    clock.watch = await ResumableWatch.start(store, log, {
      name: 'publication clock stream',
      pipeline: [{ $match: { 'ns.coll': { $in: ['articles', 'issues'] } } }, { $project: { ns: 1 } }],
      options: { maxAwaitTimeMS: 500 },
      forgetsToken: () => true,
      onChange: () => clock.refresh(),
      onReopened: () => clock.refresh(),
      onUnsupported: () => log.info('publication clock: no change stream; polling for schedule changes'),
    });
    clock.refresh();
    // Ready after one round: the rest of what a long stop left due (a thousand changes take seconds) is made in
    // the background, round after round, while the process serves; until then no answer showing content is
    // cached (the next change is already due).
    await clock.firstRound;
    clock.poll = setInterval(() => clock.refresh(), POLL_MS).unref();
    return clock;
  }

  /** When the next scheduled change happens (ms since the epoch): no answer showing content outlives it. */
  nextChangeAt(): number | undefined {
    return this.next;
  }

  /**
   * `listener` runs when a change is learnt that comes before every one known: what was cached meanwhile was given
   * a lifetime past it.
   */
  onEarlierChange(listener: () => void): void {
    this.earlier.push(listener);
  }

  /** Reads the schedule again (it changed, or may have): one read at a time, one more queued behind it. */
  refresh(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.running = this.tick();
  }

  private async tick(): Promise<void> {
    this.busy = true;
    try {
      do {
        this.again = false;
        const now = new Date();
        const [made, next] = await Promise.all([applyDueChanges(this.store, now), nextTimedChange(this.store, now)]);
        if (made > 0) this.log.info({ made }, 'publication clock: scheduled status changes made');
        // What one change made due (an issue published late past its unpublish time), and what was due past a
        // round's batch, is made by the next round.
        if (made > 0) this.again = true;
        this.arm(next);
        this.roundMade();
      } while (this.again && !this.stopped);
    } catch (err) {
      this.roundMade();
      if (!this.stopped) this.log.warn({ err }, 'publication clock: reading the schedule failed; retrying');
      if (!this.stopped) this.arm(Date.now() + 1_000);
    } finally {
      this.busy = false;
    }
  }

  private arm(at: number | undefined): void {
    clearTimeout(this.timer);
    const sooner = at !== undefined && (this.next === undefined || at < this.next);
    this.next = at;
    if (sooner) for (const listener of this.earlier) listener();
    if (at === undefined || this.stopped) return;
    this.timer = setTimeout(() => this.refresh(), Math.min(Math.max(0, at - Date.now()), LONGEST_TIMER_MS));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    await this.watch?.close();
    await this.running;
  }
}
