// Token issuance for the custom grants (password, otp), the way the provider's own grants do it: a
// Grant holding the scopes, a JWT access token for the API (resource indicator), a refresh token when
// `offline_access` was granted, an ID token when `openid` was. Scopes: what the client asked for,
// within what it is registered for (all of them when it asked for none).
import type { Account, KoaContextWithOIDC, Provider, ResourceServerInfo } from 'oidc-provider';
import { errors } from '../oidc.js';

export interface IssueOptions {
  provider: Provider;
  account: Account;
  /** The grant type, recorded on the tokens (`gty`). */
  gty: string;
  /** The API's resource indicator and its resource-server settings. */
  audience: string;
  resourceServer: ResourceServerInfo;
  /** Extra members of the answer (RFC 6749 §5.1 allows them): the device token of sign-in-limits.ts. */
  extra?: Record<string, string>;
}

function grantedScopes(ctx: KoaContextWithOIDC): string[] {
  const client = ctx.oidc.client!;
  const allowed = new Set((client.scope ?? '').split(' ').filter(Boolean));
  const asked =
    typeof ctx.oidc.params.scope === 'string' ? ctx.oidc.params.scope.split(' ').filter(Boolean) : [...allowed];
  const scopes = [...new Set(asked)];
  const refused = scopes.find((s) => !allowed.has(s));
  if (refused) throw new errors.InvalidScope('requested scope is not allowed', refused);
  // offline_access only means something to a client that may refresh.
  return client.grantTypeAllowed('refresh_token') ? scopes : scopes.filter((s) => s !== 'offline_access');
}

/**
 * RFC 8707 §2: a `resource` other than the API (or more than one) is `invalid_target`, as on the
 * provider's own grants; none means the API.
 */
export function checkResource(ctx: KoaContextWithOIDC, audience: string): void {
  const resource: unknown = ctx.oidc.params.resource;
  if (resource === undefined) return;
  if (typeof resource !== 'string' || resource !== audience) throw new errors.InvalidTarget();
}

export async function issueTokens(ctx: KoaContextWithOIDC, opts: IssueOptions): Promise<void> {
  const { provider, account, gty, audience } = opts;
  const client = ctx.oidc.client!;
  checkResource(ctx, audience);
  const scopes = grantedScopes(ctx);
  const scope = scopes.join(' ');

  const grant = new provider.Grant({ accountId: account.accountId, clientId: client.clientId });
  if (scope) {
    grant.addOIDCScope(scope);
    grant.addResourceScope(audience, scope);
  }
  const grantId = await grant.save();
  ctx.oidc.entity('Account', account);
  ctx.oidc.entity('Grant', grant);

  const at = new provider.AccessToken({
    accountId: account.accountId,
    client,
    grantId,
    gty,
    expiresWithSession: false,
    scope: scope || undefined,
  });
  at.resourceServer = new provider.ResourceServer(audience, opts.resourceServer);
  ctx.oidc.entity('AccessToken', at);
  const accessToken = await at.save();

  let refreshToken: string | undefined;
  if (scopes.includes('offline_access')) {
    const rt = new provider.RefreshToken({
      accountId: account.accountId,
      client,
      grantId,
      gty,
      scope,
      resource: audience,
      rotations: 0,
      expiresWithSession: false,
    });
    ctx.oidc.entity('RefreshToken', rt);
    refreshToken = await rt.save();
  }

  let idToken: string | undefined;
  if (scopes.includes('openid')) {
    const token = new provider.IdToken(
      { ...(await account.claims('id_token', scope, {}, [])), sub: account.accountId },
      { ctx },
    );
    token.scope = scope;
    idToken = await token.issue({ use: 'idtoken' });
  }

  ctx.body = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: at.expiration,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope,
    ...(idToken ? { id_token: idToken } : {}),
    ...opts.extra,
  };
}
