// Storage behind the authorization server's adapter contract (oidc-provider's example/my_adapter.js):
// upsert / find / findByUid / findByUserCode / consume / destroy / revokeByGrantId, one collection for
// every model, expiry through a TTL index. Consumption is atomic and tells the caller what happened.
import type { Store } from '../store.js';
import type { OAuthModelDoc } from './oauth.docs.js';

/**
 * `consumed`: this call consumed it. `grace`: already consumed, but within the grace window and for
 * the first time since (a refresh racing its twin). `reused`: already consumed before that. `missing`: gone.
 */
export type ConsumeOutcome = 'consumed' | 'grace' | 'reused' | 'missing';

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
    const grace = this.opts.graceSeconds ?? 0;
    if (grace > 0) {
      const since = new Date(now.getTime() - grace * 1000);
      const second = await this.coll.updateOne(
        { _id, consumedAt: { $gte: since }, graceUsedAt: { $exists: false } },
        { $set: { graceUsedAt: now } },
      );
      if (second.modifiedCount === 1) return { outcome: 'grace' };
    }
    const doc = await this.coll.findOne({ _id }, { projection: { grantId: 1 } });
    return doc ? { outcome: 'reused', ...(doc.grantId ? { grantId: doc.grantId } : {}) } : { outcome: 'missing' };
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
   * `consumed` set once consumed, except for a refresh token still inside its unused grace window,
   * which looks unconsumed so the provider lets the racing twin through to `consume`.
   */
  private present(doc: OAuthModelDoc | null, now = Date.now()): StoredPayload | undefined {
    if (!doc) return undefined;
    if (doc.expiresAt && doc.expiresAt.getTime() <= now) return undefined;
    const payload = JSON.parse(doc.payload) as StoredPayload;
    if (!doc.consumedAt) return payload;
    const grace = this.opts.graceSeconds ?? 0;
    const inGrace = grace > 0 && !doc.graceUsedAt && now - doc.consumedAt.getTime() < grace * 1000;
    return inGrace ? payload : { ...payload, consumed: Math.floor(doc.consumedAt.getTime() / 1000) };
  }
}
