// The token endpoint and the one-time-code request (docs/api.md) as zod. The
// provider (oidc-provider) parses these requests itself, so there is no shim schema to import: these are
// written from src/oauth (grants, token-endpoint.ts, otp.routes.ts) and pinned by the live-response tests.
import { SUPPORTED_SCOPES } from '../../oauth/clients.js';
import { OTP_TTL_SECONDS } from '../../oauth/otp.js';
import { THIRD_PARTY_PROVIDERS } from '../../oauth/third-party.js';
import { INVALID_CLIENT, INVALID_REQUEST } from '../../oauth/token-endpoint.js';
import { z } from '../zod.js';

const scopeList = `space-separated, of: ${SUPPORTED_SCOPES.join(', ')}`;

/** Fields every grant may carry: client authentication by `client_secret_post`, and the scope asked for. */
const clientFields = {
  client_id: z
    .string()
    .describe(
      'Client application identifier. Required unless the client authenticates with HTTP Basic (`client_secret_basic`), which carries it',
    ),
  client_secret: z
    .string()
    .optional()
    .describe('Client secret, for `client_secret_post`; confidential clients may use HTTP Basic instead'),
  scope: z
    .string()
    .optional()
    .describe(`Scopes asked for (${scopeList}); default: every scope the client is registered for`),
};
const optionalClient = { ...clientFields, client_id: clientFields.client_id.optional() };

const deviceTokenParam = z
  .string()
  .optional()
  .describe(
    'The `device_token` an earlier sign-in of this device answered: its failed attempts then count against this device only, and a lock caused by others does not apply',
  );
const resourceParam = z
  .string()
  .optional()
  .describe('RFC 8707 resource indicator: only this API (the default); anything else is `invalid_target`');

const authorizationCodeGrant = z
  .object({
    grant_type: z.literal('authorization_code'),
    ...optionalClient,
    code: z.string().describe('The authorization code from /oauth2/authorize'),
    redirect_uri: z.url().describe('The redirect URI of the authorization request'),
    code_verifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/)
      .describe('The PKCE (S256) code verifier; PKCE is required for every client'),
  })
  .openapi('AuthorizationCodeGrant');

const refreshTokenGrant = z
  .object({
    grant_type: z.literal('refresh_token'),
    ...optionalClient,
    refresh_token: z
      .string()
      .describe('Rotates on every use; reusing a rotated one revokes the whole grant (RFC 9700 §4.14.2)'),
  })
  .openapi('RefreshTokenGrant');

const passwordGrant = z
  .object({
    grant_type: z.literal('password'),
    ...optionalClient,
    username: z
      .string()
      .describe(
        `The customer e-mail; for third-party sign-in one of ${THIRD_PARTY_PROVIDERS.map((p) => `\`${p}\``).join(', ')}`,
      ),
    password: z
      .string()
      .describe(
        'The password; for third-party sign-in a JSON string `{"token","source","name"}` whose `token` is the provider\'s signed ID token, plus `password` (that account\'s password) or `code` (a one-time code sent to it) when the answer said `link_required`',
      ),
    device_token: deviceTokenParam,
    resource: resourceParam,
  })
  .openapi('PasswordGrant', { description: 'First-party clients registered for the password grant only' });

const otpGrant = z
  .object({
    grant_type: z.literal('otp'),
    ...optionalClient,
    username: z.string().describe('The customer e-mail the code was sent to'),
    code: z.string().describe('The 6-digit one-time code from POST /oauth2/otp (valid 5 minutes, 5 attempts)'),
    device_token: deviceTokenParam,
    resource: resourceParam,
  })
  .openapi('OtpGrant', { description: 'First-party clients registered for the otp grant only' });

export const tokenRequest = z
  .discriminatedUnion('grant_type', [authorizationCodeGrant, refreshTokenGrant, passwordGrant, otpGrant])
  .openapi('TokenRequest', { description: 'One variant per grant type; the fields each grant requires' });

export const tokenResponse = z
  .object({
    access_token: z
      .string()
      .describe('A JWT (`at+jwt`, ES256) for this API; present it as `Authorization: Bearer <token>`'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Lifetime of the access token in seconds'),
    refresh_token: z
      .string()
      .optional()
      .describe('Present when `offline_access` was granted to a client allowed the refresh_token grant'),
    scope: z.string().describe(`Scopes granted (${scopeList})`),
    id_token: z.string().optional().describe('OpenID Connect ID token, present when `openid` was granted'),
    device_token: z
      .string()
      .optional()
      .describe(
        'Password and otp grants: keep it and send it with later sign-ins from this device (brute-force limits)',
      ),
  })
  .openapi('TokenResponse', {
    examples: [
      {
        access_token: 'eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCJ9...',
        token_type: 'Bearer',
        expires_in: 900,
        refresh_token: 'Xg0kP...',
        scope: 'openid offline_access cart',
      },
    ],
  });

/** RFC 6749 §5.2 codes the service sends, with the fixed text docs/api.md gives each failure. */
const OAUTH_ERRORS = {
  invalid_request: INVALID_REQUEST,
  invalid_grant: INVALID_REQUEST,
  unsupported_grant_type: INVALID_REQUEST,
  invalid_scope: INVALID_REQUEST,
  invalid_target: INVALID_REQUEST,
  invalid_client: INVALID_CLIENT,
  unauthorized_client: INVALID_CLIENT,
  /** 429: the text says what was limited (failed attempts, code requests). */
  temporarily_unavailable: null,
  server_error: null,
} as const;
export type OAuthCode = keyof typeof OAUTH_ERRORS;

export const oauthError = z
  .object({
    error: z.enum(Object.keys(OAUTH_ERRORS) as [OAuthCode, ...OAuthCode[]]).describe('RFC 6749 §5.2 error code'),
    error_description: z
      .string()
      .optional()
      .describe('"Invalid request or authorization code" or "Invalid client credentials or unauthorized request"'),
  })
  .openapi('OAuthError', { description: 'RFC 6749 §5.2 error body of the token endpoint and of POST /oauth2/otp' });

/** The error body of one status: `error` one of `codes`, each with its fixed description. */
export function oauthErrorFor(codes: readonly OAuthCode[]): z.ZodType {
  const variant = (code: OAuthCode) => {
    const text = OAUTH_ERRORS[code];
    const base = z.object({ error: z.literal(code), error_description: text === null ? z.string() : z.literal(text) });
    // Third-party sign-in into an existing password account: ask for its password or a one-time code.
    return code === 'invalid_grant' ? base.extend({ link_required: z.literal(true).optional() }) : base;
  };
  if (codes.length === 1) return variant(codes[0]!);
  const variants = codes.map(variant);
  return z.discriminatedUnion('error', variants as [ReturnType<typeof variant>, ...Array<ReturnType<typeof variant>>]);
}

export const otpRequest = z
  .object({
    client_id: z.string().describe('A first-party client registered for the otp grant'),
    username: z.string().max(320).describe('The e-mail address to send the code to'),
  })
  .openapi('OtpRequest', { examples: [{ client_id: 'mobile-app', username: 'reader@example.com' }] });

export const otpAccepted = z
  .object({ expires_in: z.literal(OTP_TTL_SECONDS).describe('Lifetime of the code in seconds') })
  .openapi('OtpAccepted', {
    description:
      'The same answer whether or not the address has an account (no account enumeration); a code is mailed only when it has one',
  });
