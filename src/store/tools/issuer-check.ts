// Several gateways on one store must present one issuer: tokens carry the issuer and audience of the
// process that issued them, and every other process checks both. The store records the first issuer (and
// audience) that used it; a process starting under another one warns at start-up, naming both. A store
// from before the record is judged by its live grants' resources (the audience they were issued for).
import type { Logger } from '../../logger.js';
import { isDuplicateKey } from '../errors.js';
import type { Store } from '../store.js';

export const ISSUER_SETTING = 'oauth.issuer';

export interface IssuerIdentity {
  issuer: string;
  audience: string;
}

/** What the store says tokens were issued under, or undefined for a store with no record and no live grants. */
async function recordedIdentity(store: Store): Promise<{ recorded?: IssuerIdentity; grantAudiences: string[] }> {
  const setting = await store.collection('settings').findOne({ _id: ISSUER_SETTING });
  if (setting) return { recorded: setting.value as IssuerIdentity, grantAudiences: [] };
  const grants = await store
    .collection('oauth_models')
    .find({ model: 'Grant', expiresAt: { $gt: new Date() } }, { projection: { payload: 1 } })
    .limit(200)
    .toArray();
  const audiences = new Set<string>();
  for (const g of grants) {
    try {
      for (const resource of Object.keys(
        (JSON.parse(g.payload) as { resources?: Record<string, unknown> }).resources ?? {},
      ))
        audiences.add(resource);
    } catch {
      // A payload that is not JSON says nothing about the audience.
    }
  }
  return { grantAudiences: [...audiences] };
}

/** Warns when the store holds OAuth state issued under another issuer; records ours when nothing live depends on the old one. */
export async function checkIssuer(store: Store, ours: IssuerIdentity, log: Logger): Promise<void> {
  const settings = store.collection('settings');
  const { recorded, grantAudiences } = await recordedIdentity(store);
  const foreignGrants = grantAudiences.filter((a) => a !== ours.audience);
  const differs = recorded
    ? recorded.issuer !== ours.issuer || recorded.audience !== ours.audience
    : foreignGrants.length > 0;
  if (differs) {
    log.warn(
      {
        storedIssuer: recorded?.issuer,
        storedAudience: recorded?.audience ?? foreignGrants,
        issuer: ours.issuer,
        audience: ours.audience,
      },
      'this store holds OAuth keys and grants issued under a different issuer: tokens from gateways with that issuer will be refused here and refresh tokens will fail (invalid_target). Give every gateway on one store the same PUBLIC_URL (docs/deployment.md, "Outgrowing one machine")',
    );
  }
  const live = await store.collection('oauth_models').countDocuments({ expiresAt: { $gt: new Date() } }, { limit: 1 });
  if (recorded && differs && live === 0) {
    await settings.updateOne({ _id: ISSUER_SETTING }, { $set: { value: ours, updatedAt: new Date() } });
  } else if (!recorded && !differs) {
    await settings.insertOne({ _id: ISSUER_SETTING, value: ours, updatedAt: new Date() }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }
}
