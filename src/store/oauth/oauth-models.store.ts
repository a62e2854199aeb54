// Storage behind the authorization server's adapter contract (oidc-provider's example/my_adapter.js):
// upsert / find / findByUid / findByUserCode / consume / destroy / revokeByGrantId, one collection for
// every model, expiry through a TTL index. Consumption is atomic and tells the caller what happened.
import type { Store } from '../store.js';
import type { OAuthModelDoc } from './oauth.docs.js';

/**
 * `consumed`: this call consumed it. `replay`: consumed before, but inside the grace window and its
 * successor (if any yet) unused: an idempotent retry that gets the same successor. `reused`: consumed
 * before that, or its successor has been used. `missing`: gone.
 */
export type ConsumeOutcome = 'consumed' | 'replay' | 'reused' | 'missing';

export type StoredPayload = Record<string, unknown>;

export interface ModelStoreOptions {
  /** Seconds after a first consume during which one more consume is tolerated (refresh tokens). */
  graceSeconds?: number;
}

export class OAuthModelStore {
  constructor(
    private readonly store: Store,
    readonly model: string,
    private readonly opts: ModelStoreOptions = {},
  ) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  private get coll() {
    return this.store.collection('oauth_models');
  }

  async upsert(id: string, payload: StoredPayload, expiresIn?: number): Promise<void> {
    const doc: Omit<OAuthModelDoc, '_id'> = {
      model: this.model,
      payload: JSON.stringify(payload),
      ...(typeof payload.grantId === 'string' ? { grantId: payload.grantId } : {}),
      ...(typeof payload.uid === 'string' ? { uid: payload.uid } : {}),
      ...(typeof payload.userCode === 'string' ? { userCode: payload.userCode } : {}),
      ...(typeof expiresIn === 'number' ? { expiresAt: new Date(Date.now() + expiresIn * 1000) } : {}),
    };
    await this.coll.replaceOne({ _id: this.key(id) }, doc, { upsert: true });
  }

  async find(id: string): Promise<StoredPayload | undefined> {
    return this.present(await this.coll.findOne({ _id: this.key(id) }));
  }

  async findByUid(uid: string): Promise<StoredPayload | undefined> {
    return this.present(await this.coll.findOne({ model: this.model, uid }));
  }

  async findByUserCode(userCode: string): Promise<StoredPayload | undefined> {
    return this.present(await this.coll.findOne({ model: this.model, userCode }));
  }

  async consume(id: string, now = new Date()): Promise<{ outcome: ConsumeOutcome; grantId?: string }> {
    const _id = this.key(id);
    const first = await this.coll.updateOne({ _id, consumedAt: { $exists: false } }, { $set: { consumedAt: now } });
    if (first.modifiedCount === 1) return { outcome: 'consumed' };
    const doc = await this.coll.findOne({ _id }, { projection: { grantId: 1, consumedAt: 1, successorId: 1 } });
    if (!doc) return { outcome: 'missing' };
    const grantId = doc.grantId ? { grantId: doc.grantId } : {};
    const grace = this.opts.graceSeconds ?? 0;
    if (grace > 0 && doc.consumedAt && now.getTime() - doc.consumedAt.getTime() < grace * 1000) {
      // No successor yet, or one claimed but not yet saved: the first use is still being answered. One that
      // exists must be unused.
      if (!doc.successorId) return { outcome: 'replay', ...grantId };
      const successor = await this.coll.findOne({ _id: this.key(doc.successorId) }, { projection: { consumedAt: 1 } });
      if (!successor || !successor.consumedAt) return { outcome: 'replay', ...grantId };
    }
    return { outcome: 'reused', ...grantId };
  }

  /**
   * Records `candidate` as the successor of the refresh token `fromId` unless it has one already; returns
   * the successor that holds (the candidate, or the one an earlier use of the same token created).
   */
  async claimSuccessor(fromId: string, candidate: string): Promise<string | null> {
    const _id = this.key(fromId);
    const claimed = await this.coll.updateOne(
      { _id, successorId: { $exists: false } },
      { $set: { successorId: candidate } },
    );
    if (claimed.modifiedCount === 1) return candidate;
    const doc = await this.coll.findOne({ _id }, { projection: { successorId: 1 } });
    return doc?.successorId ?? null;
  }

  async destroy(id: string): Promise<void> {
    await this.coll.deleteOne({ _id: this.key(id) });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.coll.deleteMany({ model: this.model, grantId });
  }

  /** Every token of a grant, of every model, and the grant itself: what a detected replay costs. */
  static async revokeGrant(store: Store, grantId: string): Promise<void> {
    const coll = store.collection('oauth_models');
    await coll.deleteMany({ grantId });
    await coll.deleteOne({ _id: `Grant:${grantId}` });
  }

  /**
   * The payload as the provider expects it: undefined once expired (the TTL monitor is lazy), and with
   * `consumed` set once consumed, except for a refresh token still inside its grace window, which looks
   * unconsumed so the provider takes a retry through to `consume` (which decides).
   */
  private present(doc: OAuthModelDoc | null, now = Date.now()): StoredPayload | undefined {
    if (!doc) return undefined;
    if (doc.expiresAt && doc.expiresAt.getTime() <= now) return undefined;
    const payload = JSON.parse(doc.payload) as StoredPayload;
    if (!doc.consumedAt) return payload;
    const grace = this.opts.graceSeconds ?? 0;
    const inGrace = grace > 0 && now - doc.consumedAt.getTime() < grace * 1000;
    return inGrace ? payload : { ...payload, consumed: Math.floor(doc.consumedAt.getTime() / 1000) };
  }
}
