// Immediate revocation without a store round trip per request: every gateway process keeps the revoked
// grant ids and access-token ids (jti) in memory, and the bearer check consults that set. Revocations
// are written to `oauth_revocations` and each process reads new ones with a short poll (OAUTH_POLL_MS,
// 1 s by default), so a revocation reaches every process within a poll period; the process that revoked
// knows at once. The feed is one small interface so a change stream can replace the poll later.
import type { Logger } from '../logger.js';
import { recordRevocations, revocationsSince, type Revocation } from '../store/oauth/revocations.store.js';
import type { Store } from '../store/store.js';
import { startPoll, type Poll } from './poll.js';

/** Re-read this much before the newest revocation seen: writers' clocks and slow writes land inside it. */
const OVERLAP_MS = 5_000;

/** Where new revocations come from. The poll is what ships; a change stream can take its place. */
export interface RevocationFeed {
  start(onRevoked: (entries: Array<Revocation & { expiresAt: Date }>) => void): Promise<void>;
  stop(): void;
}

export class PollingRevocationFeed implements RevocationFeed {
  private polling: Poll | undefined;
  private since: Date | null = null;

  constructor(
    private readonly store: Store,
    private readonly periodMs: number,
    private readonly log: Logger,
  ) {}

  async start(onRevoked: (entries: Array<Revocation & { expiresAt: Date }>) => void): Promise<void> {
    await this.poll(onRevoked);
    this.polling = startPoll(this.periodMs, () => this.poll(onRevoked), {
      log: this.log,
      message: 'oauth: could not read revocations; retrying',
    });
  }

  private async poll(onRevoked: (entries: Array<Revocation & { expiresAt: Date }>) => void): Promise<void> {
    const docs = await revocationsSince(this.store, this.since);
    if (docs.length === 0) return;
    const newest = docs[docs.length - 1]!.at.getTime();
    this.since = new Date(Math.max(this.since?.getTime() ?? 0, newest - OVERLAP_MS));
    onRevoked(docs.map((d) => ({ kind: d.kind, value: d.value, expiresAt: d.expiresAt })));
  }

  stop(): void {
    this.polling?.stop();
  }
}

/** Told of each revocation a process learns (its own at once, another process's within a poll period). */
export type RevocationListener = (entries: readonly Revocation[]) => void;

export class RevocationList {
  /** `grant:<id>` / `token:<jti>` -> when the entry stops mattering (ms). */
  private readonly revoked = new Map<string, number>();
  private readonly listeners = new Set<RevocationListener>();
  private sweeps = 0;

  constructor(
    private readonly store: Store,
    private readonly feed: RevocationFeed,
    /** How long a revocation matters: the longest access-token lifetime (plus clock slack). */
    private readonly keepSeconds: number,
  ) {}

  start(): Promise<void> {
    return this.feed.start((entries) => {
      const learnt = entries.filter((e) => !this.revoked.has(`${e.kind}:${e.value}`));
      for (const e of entries) this.revoked.set(`${e.kind}:${e.value}`, e.expiresAt.getTime());
      this.sweep();
      this.tell(learnt);
    });
  }

  /** Calls `listener` with every revocation learnt from now on (live connections end theirs); returns the unsubscribe. */
  onRevoked(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.feed.stop();
  }

  /** True when the access token (by jti) or its grant has been revoked. */
  isRevoked(jti: unknown, grantId: unknown): boolean {
    return (
      (typeof jti === 'string' && this.revoked.has(`token:${jti}`)) ||
      (typeof grantId === 'string' && this.revoked.has(`grant:${grantId}`))
    );
  }

  /** Records revocations in the store and, at once, in this process. */
  async revoke(entries: Revocation[]): Promise<void> {
    if (entries.length === 0) return;
    const until = Date.now() + this.keepSeconds * 1000;
    for (const e of entries) this.revoked.set(`${e.kind}:${e.value}`, until);
    this.tell(entries);
    await recordRevocations(this.store, entries, this.keepSeconds);
  }

  revokeGrant(grantId: string): Promise<void> {
    return this.revoke([{ kind: 'grant', value: grantId }]);
  }

  revokeToken(jti: string): Promise<void> {
    return this.revoke([{ kind: 'token', value: jti }]);
  }

  private tell(entries: readonly Revocation[]): void {
    if (entries.length === 0) return;
    for (const listener of this.listeners) listener(entries);
  }

  /** Drops entries whose tokens have all expired (every 100 updates; the store's TTL index does the same). */
  private sweep(): void {
    if (++this.sweeps % 100 !== 0) return;
    const now = Date.now();
    for (const [key, until] of this.revoked) if (until <= now) this.revoked.delete(key);
  }
}
