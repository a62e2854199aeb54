// POST /oauth2/access_token and POST /oauth2/otp (docs/api.md): form bodies per RFC 6749, JSON
// accepted for legacy clients; errors in the RFC 6749 §5.2 shape, not problem+json. The rest of the
// authorization server (authorize, revocation, introspection, discovery, JWKS) is described by its
// OpenID Connect discovery document, referenced from the security schemes.
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { OAUTH_MOUNT } from '../../oauth/index.js';
import { OAUTH_ROUTES } from '../../oauth/provider.js';
import { headers, type HeaderName } from '../components/headers.js';
import {
  oauthErrorFor,
  otpAccepted,
  otpRequest,
  tokenRequest,
  tokenResponse,
  type OAuthCode,
} from '../components/oauth.js';
import { JSON_TYPE } from '../responses.js';
import { clientAuthentication } from '../security.js';

const TOKEN_PATH = `${OAUTH_MOUNT}${OAUTH_ROUTES.token}`;
const OTP_PATH = `${OAUTH_MOUNT}/otp`;
const FORM_TYPE = 'application/x-www-form-urlencoded';

function oauthError(
  description: string,
  codes: readonly OAuthCode[],
  extra: Partial<Record<string, HeaderName>> = {},
): ResponseConfig {
  return {
    description,
    headers: headers({ 'Cache-Control': 'NoStore', ...extra }),
    content: { [JSON_TYPE]: { schema: oauthErrorFor(codes) } },
  };
}

export function registerOAuthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: TOKEN_PATH,
    operationId: 'requestAccessToken',
    tags: ['OAuth'],
    summary: 'Token endpoint',
    description:
      'Exchanges an authorization code (with its PKCE verifier) or a refresh token for tokens; first-party clients may also use the `password` grant (including third-party sign-in) and the `otp` grant. Failed password and one-time-code attempts are limited per account and per client IP (429 with `Retry-After`), and answers take the same time whether or not the account exists.',
    security: clientAuthentication,
    request: {
      body: {
        required: true,
        description: 'RFC 6749 form parameters; a JSON object with the same flat fields is accepted too',
        content: {
          [FORM_TYPE]: { schema: tokenRequest },
          [JSON_TYPE]: {
            schema: tokenRequest,
            example: {
              grant_type: 'password',
              client_id: 'mobile-app',
              username: 'reader@example.com',
              password: 'correct horse battery staple',
              scope: 'openid offline_access cart',
            },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'Tokens issued',
        headers: headers({ 'Cache-Control': 'NoStore' }),
        content: { [JSON_TYPE]: { schema: tokenResponse } },
      },
      400: oauthError(
        'Invalid request or authorization code (or a client not registered for the grant: `unauthorized_client`)',
        [
          'invalid_request',
          'invalid_grant',
          'unsupported_grant_type',
          'invalid_scope',
          'invalid_target',
          'unauthorized_client',
        ],
      ),
      401: oauthError('Invalid client credentials or unauthorized request', ['invalid_client'], {
        'WWW-Authenticate': 'BasicChallenge',
      }),
      429: oauthError(
        'Too many failed attempts for this account or IP; try again after `Retry-After`',
        ['temporarily_unavailable'],
        { 'Retry-After': 'RetryAfter' },
      ),
      500: oauthError('Unexpected failure', ['server_error']),
    },
  });

  registry.registerPath({
    method: 'post',
    path: OTP_PATH,
    operationId: 'requestOneTimeCode',
    tags: ['OAuth'],
    summary: 'Request a one-time sign-in code',
    description:
      'Mails a 6-digit code (valid 5 minutes, 5 attempts) to the address when it has an account; exchange it with `grant_type=otp` at the token endpoint. The answer is 202 either way, so it does not reveal which addresses have accounts.',
    security: [],
    request: {
      body: { required: true, content: { [JSON_TYPE]: { schema: otpRequest }, [FORM_TYPE]: { schema: otpRequest } } },
    },
    responses: {
      202: {
        description: 'Accepted',
        headers: headers({ 'Cache-Control': 'NoStore' }),
        content: { [JSON_TYPE]: { schema: otpAccepted } },
      },
      400: oauthError(
        'A malformed request or address (`invalid_request`), or a client not registered for the otp grant (`unauthorized_client`)',
        ['invalid_request', 'unauthorized_client'],
      ),
      401: oauthError('Unknown client', ['invalid_client']),
      429: oauthError(
        'Too many code requests for this address or IP; try again after `Retry-After`',
        ['temporarily_unavailable'],
        { 'Retry-After': 'RetryAfter' },
      ),
    },
  });
}
