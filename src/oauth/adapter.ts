// The provider's storage adapter: every model in `oauth_models` through OAuthModelStore, and the Client
// model read from the `clients` collection. A second use of a consumed code or refresh token is detected
// atomically here (outside the grace window) and costs the whole grant (RFC 9700 §4.14.2).
import type { Logger } from '../logger.js';
import { findClient } from '../store/oauth/clients.store.js';
import { OAuthModelStore, type StoredPayload } from '../store/oauth/oauth-models.store.js';
import type { Store } from '../store/store.js';
import { toClientMetadata } from './clients.js';
import { errors } from './oidc.js';

export interface AdapterOptions {
  /** Grace window for a refresh token's racing twin (REFRESH_REUSE_GRACE_SECONDS). */
  refreshGraceSeconds: number;
  log: Logger;
}

export function adapterFactory(store: Store, opts: AdapterOptions) {
  return class MongoAdapter {
    private readonly models: OAuthModelStore;

    constructor(readonly name: string) {
      this.models = new OAuthModelStore(store, name, name === 'RefreshToken' ? { graceSeconds: opts.refreshGraceSeconds } : {});
    }

    async upsert(id: string, payload: StoredPayload, expiresIn?: number): Promise<void> {
      await this.models.upsert(id, payload, expiresIn);
    }

    async find(id: string): Promise<StoredPayload | undefined> {
      if (this.name === 'Client') {
        const doc = await findClient(store, id);
        return doc ? toClientMetadata(doc) : undefined;
      }
      return this.models.find(id);
    }

    findByUid(uid: string): Promise<StoredPayload | undefined> {
      return this.models.findByUid(uid);
    }

    findByUserCode(userCode: string): Promise<StoredPayload | undefined> {
      return this.models.findByUserCode(userCode);
    }

    async consume(id: string): Promise<void> {
      const { outcome, grantId } = await this.models.consume(id);
      if (outcome === 'consumed') return;
      if (outcome === 'grace') {
        opts.log.info({ model: this.name }, 'oauth: refresh token used twice inside the grace window; both rotations allowed');
        return;
      }
      // Lost a race with another use of the same code or token: treat it as the replay it is.
      if (grantId) await OAuthModelStore.revokeGrant(store, grantId);
      opts.log.warn({ model: this.name, grantId }, 'oauth: consumed credential used again; grant revoked');
      throw new errors.InvalidGrant(`${this.name} already used`);
    }

    async destroy(id: string): Promise<void> {
      await this.models.destroy(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await this.models.revokeByGrantId(grantId);
    }
  };
}
