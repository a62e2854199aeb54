// The oidc-provider instance: configuration (routes under /oauth2, PKCE for every client, JWT access
// tokens for the API through resource indicators, refresh rotation, our storage, keys and account
// lookup) and the two custom grants. Everything the provider would otherwise default with a
// development warning is set here.
import type { Configuration, KoaContextWithOIDC, Provider as ProviderType, ResourceServerInfo } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { OAuthModelStore } from '../store/oauth/oauth-models.store.js';
import type { Store } from '../store/store.js';
import { accountFinder, CLAIMS } from './account.js';
import { adapterFactory } from './adapter.js';
import { secretMatches, SUPPORTED_SCOPES } from './clients.js';
import { otpGrant, OTP_PARAMETERS } from './grants/otp.grant.js';
import { passwordGrant, PASSWORD_PARAMETERS, type PasswordGrantDeps } from './grants/password.grant.js';
import { ID_TOKEN_TTL_SECONDS, type OAuthKeys } from './keys.js';
import { errors, Provider } from './oidc.js';
import type { RevocationList } from './revocations.js';
import { tokenRequestState } from './token-request.js';
import type { OtpService } from './otp.js';
import { renderError } from './views/error.view.js';
import { logoutSource, postLogoutSuccessSource } from './views/logout.view.js';

export const OAUTH_ROUTES = {
  authorization: '/authorize',
  token: '/access_token',
  jwks: '/jwks',
  revocation: '/revoke',
  introspection: '/introspect',
  end_session: '/session/end',
  userinfo: '/userinfo',
};

export interface ProviderDeps {
  config: Config;
  log: Logger;
  store: Store;
  keys: OAuthKeys;
  otp: OtpService;
  password: Omit<PasswordGrantDeps, 'issue'>;
  revocations: RevocationList;
}

/** The API as a resource server: every supported scope, JWT access tokens signed ES256 with the active key. */
function apiResourceServer(config: Config, keys: Pick<OAuthKeys, 'activeKids'>): ResourceServerInfo {
  return {
    scope: SUPPORTED_SCOPES.join(' '),
    audience: config.oauth.audience,
    accessTokenTTL: config.oauth.accessTokenTtl,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'ES256', ...(keys.activeKids.ES256 ? { kid: keys.activeKids.ES256 } : {}) } },
  };
}

export function createProvider(deps: ProviderDeps): ProviderType {
  const { config, store, keys, log } = deps;
  const { audience, refreshTokenTtl } = config.oauth;
  const resourceServer = apiResourceServer(config, keys);
  const interactionBase = `${new URL(config.oauth.issuer).pathname.replace(/\/$/, '')}/interaction`;

  const configuration: Configuration = {
    adapter: adapterFactory(store, {
      refreshGraceSeconds: config.oauth.refreshReuseGraceSeconds,
      revocations: deps.revocations,
      log,
    }),
    formats: { customizers: { jwt: recordAccessToken } },
    clients: [],
    findAccount: accountFinder(store),
    jwks: keys.jwks,
    cookies: {
      keys: keys.cookieKeys,
      names: { session: '_oauth_session', interaction: '_oauth_interaction', resume: '_oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    claims: CLAIMS,
    scopes: [...SUPPORTED_SCOPES],
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    pkce: { required: () => true },
    routes: OAUTH_ROUTES,
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      userinfo: { enabled: false },
      revocation: { enabled: true, allowedPolicy: revokeOwnTokenOnly },
      introspection: { enabled: true, allowedPolicy: ownTokenOnly },
      resourceIndicators: {
        enabled: true,
        // Every token is for the API unless a client names another resource (which is refused).
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== audience) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${interactionBase}/${interaction.uid}` },
    rotateRefreshToken: true,
    issueRefreshToken: async (
      _ctx: unknown,
      client: { grantTypeAllowed(t: string): boolean },
      source: { scopes: Set<string> },
    ) => client.grantTypeAllowed('refresh_token') && source.scopes.has('offline_access'),
    // A browser sign-in without offline_access lasts as long as the browser session: signing out revokes
    // its grant (and so its access tokens). With offline_access it outlives the session (OIDC Core §11).
    expiresWithSession: async (_ctx: unknown, token: { scopes: Set<string> }) => !token.scopes.has('offline_access'),
    ttl: {
      AccessToken: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? config.oauth.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: ID_TOKEN_TTL_SECONDS,
      Interaction: 600,
      Session: 14 * 24 * 3_600,
      Grant: refreshTokenTtl,
      // Rotation keeps the first token's end: a refresh chain lives REFRESH_TOKEN_TTL from sign-in.
      RefreshToken: (ctx: KoaContextWithOIDC | undefined) => {
        const rotated = (ctx?.oidc as { entities?: { RotatedRefreshToken?: { remainingTTL: number } } } | undefined)
          ?.entities?.RotatedRefreshToken;
        return rotated ? Math.max(1, rotated.remainingTTL) : refreshTokenTtl;
      },
    },
    renderError,
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
      origin !== 'null' && client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
  };

  const provider = new Provider(config.oauth.issuer, configuration);
  // The stored client "secret" is its SHA-256 (see clients.ts).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(actual: string) {
    return secretMatches(this.clientSecret, actual);
  };

  keepOneSuccessor(provider, store, config.oauth.refreshReuseGraceSeconds);

  const issue = { provider, audience, resourceServer };
  provider.registerGrantType('password', passwordGrant({ ...deps.password, issue }), PASSWORD_PARAMETERS, ['resource']);
  provider.registerGrantType('otp', otpGrant({ otp: deps.otp, issue }), OTP_PARAMETERS, ['resource']);

  provider.on('server_error', (_ctx: unknown, err: unknown) => log.error({ err }, 'oauth: provider error'));
  return provider;
}

/**
 * RFC 7009 §2.1: a client may revoke only its own tokens; another client's token is refused (400
 * invalid_request, the provider's own wording) and stays valid.
 */
async function revokeOwnTokenOnly(
  _ctx: unknown,
  client: { clientId: string },
  token: { clientId: string },
): Promise<boolean> {
  if (token.clientId !== client.clientId)
    throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
  return true;
}

/** Introspection answers only about the calling client's own tokens (another's is `active: false`). */
async function ownTokenOnly(
  _ctx: unknown,
  client: { clientId: string },
  token: { clientId: string },
): Promise<boolean> {
  return token.clientId === client.clientId;
}

interface IssuedAccessToken {
  jti: string;
  grantId?: string;
  constructor: { IN_PAYLOAD: string[] };
  adapter: { upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> };
  [key: string]: unknown;
}

/**
 * Every JWT access token, as it is signed: its grant id goes in as `gid` (the bearer check refuses a
 * revoked grant's tokens without a store read), and a record of it is kept under its jti for its
 * lifetime, which is what introspection (RFC 7662) and revocation (RFC 7009) look up.
 */
async function recordAccessToken(
  _ctx: unknown,
  token: IssuedAccessToken,
  jwt: { payload: Record<string, unknown> },
): Promise<void> {
  if (token.grantId) jwt.payload.gid = token.grantId;
  const record: Record<string, unknown> = {};
  for (const key of token.constructor.IN_PAYLOAD)
    if (key !== 'format' && token[key] !== undefined) record[key] = token[key];
  const { iat, exp, aud } = jwt.payload as { iat: number; exp: number; aud: unknown };
  Object.assign(record, { iat, exp, aud, jti: token.jti, kind: 'AccessToken' });
  await token.adapter.upsert(token.jti, record, Math.max(1, exp - Math.floor(Date.now() / 1000)));
}

/**
 * A refresh token's rotation has one successor. The first use of a token claims the successor slot on
 * it; a retry inside the grace window (the adapter's `consume` let it through) gets the successor the
 * first use created instead of a new one, so the chain never forks.
 */
function keepOneSuccessor(provider: ProviderType, store: Store, graceSeconds: number): void {
  const models = new OAuthModelStore(store, 'RefreshToken', { graceSeconds });
  const proto = provider.RefreshToken.prototype as { save(): Promise<string>; jti?: string; generateTokenId(): string };
  const save = proto.save;
  proto.save = async function saveRotated(this: typeof proto): Promise<string> {
    const from = tokenRequestState()?.rotatedFrom;
    if (!from || this.jti) return save.call(this);
    const candidate = this.generateTokenId();
    const successor = await models.claimSuccessor(from, candidate);
    if (successor === null) throw new errors.InvalidGrant('refresh token not found');
    this.jti = successor;
    return successor === candidate ? save.call(this) : successor;
  };
}
