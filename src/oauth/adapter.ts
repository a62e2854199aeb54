// The provider's storage adapter: every model in `oauth_models` through OAuthModelStore, and the Client
// model read from the `clients` collection. Revocations (a destroyed access token or grant, a grant's
// tokens revoked) go to the revocation list too, so every process refuses them within a poll period. A
// consumed code or refresh token used again is detected atomically here and costs the whole grant
// (RFC 9700 §4.14.2), except a refresh token retried inside its grace window while its successor is unused.
import type { Logger } from '../logger.js';
import { findClient } from '../store/oauth/clients.store.js';
import { OAuthModelStore, type StoredPayload } from '../store/oauth/oauth-models.store.js';
import type { Store } from '../store/store.js';
import { toClientMetadata } from './clients.js';
import { errors } from './oidc.js';
import type { RevocationList } from './revocations.js';
import { tokenRequestState } from './token-request.js';

export interface AdapterOptions {
  /** Grace window for retrying a refresh token (REFRESH_REUSE_GRACE_SECONDS). */
  refreshGraceSeconds: number;
  revocations: RevocationList;
  log: Logger;
}

export function adapterFactory(store: Store, opts: AdapterOptions) {
  return class MongoAdapter {
    private readonly models: OAuthModelStore;

    constructor(readonly name: string) {
      this.models = new OAuthModelStore(
        store,
        name,
        name === 'RefreshToken' ? { graceSeconds: opts.refreshGraceSeconds } : {},
      );
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
      if (outcome === 'consumed' || outcome === 'replay') {
        if (this.name === 'RefreshToken') {
          const state = tokenRequestState();
          if (state) state.rotatedFrom = id;
        }
        if (outcome === 'replay')
          opts.log.info({ model: this.name }, 'oauth: refresh token retried inside the grace window; same successor');
        return;
      }
      // Used again after its successor was, after the window, or after losing a race: the replay it is.
      if (grantId) await revokeGrant(store, opts.revocations, grantId);
      opts.log.warn({ model: this.name, grantId }, 'oauth: consumed credential used again; grant revoked');
      throw new errors.InvalidGrant(`${this.name} already used`);
    }

    async destroy(id: string): Promise<void> {
      await this.models.destroy(id);
      if (this.name === 'AccessToken') await opts.revocations.revokeToken(id);
      else if (this.name === 'Grant') await opts.revocations.revokeGrant(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await this.models.revokeByGrantId(grantId);
      // The provider revokes a grant's tokens model by model, access tokens always among them.
      if (this.name === 'AccessToken') await opts.revocations.revokeGrant(grantId);
    }
  };
}

/** Every token of a grant and the grant itself: what a detected replay costs. */
async function revokeGrant(store: Store, revocations: RevocationList, grantId: string): Promise<void> {
  await revocations.revokeGrant(grantId);
  await OAuthModelStore.revokeGrant(store, grantId);
}
