// Security schemes (docs/api.md): bearer JWT access tokens on the API, the OAuth 2.0 flows that
// issue them (URLs from config, so the document names this deployment's authorization server), OpenID
// Connect discovery, and HTTP Basic client authentication (client_secret_basic) at the token endpoint.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Config } from '../config.js';
import { OAUTH_ROUTES } from '../oauth/provider.js';

const SCHEMES = {
  bearer: 'bearerAuth',
  oauth2: 'oauth2',
  oidc: 'openIdConnect',
  clientBasic: 'clientSecretBasic',
} as const;

const SCOPES: Record<string, string> = {
  openid: 'Sign in with OpenID Connect (an ID token comes with the access token)',
  offline_access: 'Refresh tokens (they rotate on every use)',
  profile: "The customer's name",
  email: "The customer's e-mail address",
  cart: "Read and change the caller's own carts",
};

export function registerSecuritySchemes(registry: OpenAPIRegistry, config: Pick<Config, 'oauth'>): void {
  const issuer = config.oauth.issuer;
  const tokenUrl = `${issuer}${OAUTH_ROUTES.token}`;
  registry.registerComponent('securitySchemes', SCHEMES.bearer, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'An access token from the token endpoint, as `Authorization: Bearer <token>` (RFC 6750). A missing or invalid token where one is required, or any credential presented that is not a valid bearer token (another scheme such as Basic included), is a 401 with `WWW-Authenticate: Bearer ...`; a valid token without the needed scope is a 403.',
  });
  registry.registerComponent('securitySchemes', SCHEMES.oauth2, {
    type: 'oauth2',
    description:
      'The authorization server under /oauth2. Besides these flows, first-party clients may use the `otp` grant (a mailed one-time code, see POST /oauth2/otp) and third-party sign-in through the password grant. PKCE (S256) is required for every authorization code.',
    flows: {
      authorizationCode: {
        authorizationUrl: `${issuer}${OAUTH_ROUTES.authorization}`,
        tokenUrl,
        refreshUrl: tokenUrl,
        scopes: SCOPES,
      },
      password: { tokenUrl, refreshUrl: tokenUrl, scopes: SCOPES },
    },
  });
  registry.registerComponent('securitySchemes', SCHEMES.oidc, {
    type: 'openIdConnect',
    openIdConnectUrl: `${issuer}/.well-known/openid-configuration`,
    description: 'OpenID Connect discovery for the same authorization server',
  });
  registry.registerComponent('securitySchemes', SCHEMES.clientBasic, {
    type: 'http',
    scheme: 'basic',
    description:
      'Client authentication at the token endpoint (`client_secret_basic`): client id and secret, each form-urlencoded, as HTTP Basic credentials. Alternatives: `client_secret_post` (the same in the body) and `none` for public clients, which must use PKCE.',
  });
}

type Requirement = Record<string, string[]>;

/** Anonymous allowed; a presented token must be valid and adds a viewer. */
export const optionalBearer: Requirement[] = [{}, { [SCHEMES.bearer]: [] }, { [SCHEMES.oauth2]: [] }];
/** A bearer token holding `scope`. */
export const bearerWithScope = (scope: string): Requirement[] => [
  { [SCHEMES.oauth2]: [scope] },
  { [SCHEMES.bearer]: [scope] },
];
/** The token endpoint: HTTP Basic, or client_secret_post / none (no header). */
export const clientAuthentication: Requirement[] = [{ [SCHEMES.clientBasic]: [] }, {}];
