// Seeded requests for the OAuth fuzz test: token requests of every grant with real, wrong, missing, repeated and
// oversized parameters, every way of presenting a client (Basic, in the body, both, broken), form and JSON bodies
// and bodies that are neither, and odd calls to the rest of /oauth2 (otp, introspection, revocation, authorize,
// userinfo, interactions, metadata).
import { Draws } from '../helpers/random.js';

export interface OAuthFuzzRequest {
  kind: string;
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What the fuzzer may use: a real client, customer and tokens, so that some requests succeed. */
export interface OAuthFuzzFixture {
  clientId: string;
  clientSecret: string;
  publicClientId: string;
  redirectUri: string;
  email: string;
  password: string;
  /** Refresh tokens seen in answers (used, rotated or live). */
  refreshTokens: string[];
  /** Access tokens seen in answers. */
  accessTokens: string[];
}

export const TOKEN_PATH = '/oauth2/access_token';

export class OAuthFuzzer extends Draws {
  constructor(
    seed: number,
    private readonly fx: OAuthFuzzFixture,
  ) {
    super(seed);
  }

  /** A value a careless or hostile client might send in any parameter. */
  private odd(): string {
    return this.pick([
      '',
      ' ',
      'x'.repeat(1 + this.int(3000)),
      '%00',
      '\u0000',
      'null',
      '{"$ne":null}',
      '[object Object]',
      'üñíçødé',
      '\ud83d\ude00',
      '../../etc/passwd',
      '<script>alert(1)</script>',
      String(2 ** 53 + this.int(9)),
      '-1',
      'true',
    ]);
  }

  private maybe(value: string): string {
    return this.chance(0.8) ? value : this.odd();
  }

  private token(list: string[]): string {
    if (!list.length || this.chance(0.3))
      return this.pick([this.odd(), 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', `${'A'.repeat(43)}`]);
    const real = this.pick(list);
    return this.chance(0.7) ? real : `${real.slice(0, -3)}${this.pick(['AAA', 'xyz', ''])}`;
  }

  /** The parameters of one grant, mostly plausible. */
  private grantParams(): Array<[string, string]> {
    const grant = this.pick([
      'password',
      'password',
      'refresh_token',
      'authorization_code',
      'otp',
      'client_credentials',
      'implicit',
      'urn:ietf:params:oauth:grant-type:device_code',
      '',
      this.odd(),
    ]);
    const out: Array<[string, string]> = grant || this.chance(0.5) ? [['grant_type', grant]] : [];
    const scope = () =>
      this.pick(['openid offline_access cart', 'cart', 'openid', 'admin', 'openid openid', '', this.odd()]);
    switch (grant) {
      case 'password':
        out.push([
          'username',
          this.chance(0.1)
            ? this.pick(['google', 'facebook', 'apple'])
            : this.maybe(this.pick([this.fx.email, this.fx.email.toUpperCase(), 'nobody@example.test'])),
        ]);
        if (out[1]![1] === 'google' || out[1]![1] === 'facebook' || out[1]![1] === 'apple') {
          out.push([
            'password',
            this.pick([
              JSON.stringify({ token: this.odd(), source: this.odd(), name: 'N' }),
              '{',
              '[]',
              JSON.stringify({ token: 1 }),
              this.odd(),
            ]),
          ]);
        } else {
          out.push(['password', this.chance(0.4) ? this.fx.password : this.maybe('wrong-password')]);
        }
        break;
      case 'refresh_token':
        out.push(['refresh_token', this.token(this.fx.refreshTokens)]);
        break;
      case 'authorization_code':
        out.push(
          ['code', this.maybe(`${'c'.repeat(43)}`)],
          ['redirect_uri', this.maybe(this.fx.redirectUri)],
          ['code_verifier', this.pick(['short', 'v'.repeat(43), 'v'.repeat(129), 'bad chars!*', this.odd()])],
        );
        break;
      case 'otp':
        out.push(
          ['username', this.maybe(this.fx.email)],
          ['code', this.pick(['123456', '000000', '12345', '1234567', 'abcdef', this.odd()])],
        );
        break;
      default:
        break;
    }
    if (this.chance(0.3)) out.push(['scope', scope()]);
    if (this.chance(0.1)) out.push(['resource', this.pick(['http://evil.example/', 'not a uri', this.odd()])]);
    if (this.chance(0.1))
      out.push([
        this.pick(['extra', '__proto__', 'constructor', '$where', 'grant_type[]', 'a'.repeat(200)]),
        this.odd(),
      ]);
    // RFC 6749 §3.2: a parameter sent twice.
    if (this.chance(0.1) && out.length) out.push(this.pick(out));
    return out;
  }

  /** How the client authenticates: a mix of right, wrong and malformed. */
  private clientAuth(params: Array<[string, string]>): Record<string, string> {
    const basic = (id: string, secret: string) => ({
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
    });
    switch (this.int(9)) {
      case 0:
      case 1:
      case 2:
        return basic(this.fx.clientId, this.fx.clientSecret);
      case 3:
        return basic(this.fx.clientId, this.maybe('wrong-secret'));
      case 4:
        params.push(['client_id', this.fx.clientId], ['client_secret', this.maybe(this.fx.clientSecret)]);
        return {};
      case 5:
        // Two methods at once (RFC 6749 §2.3: MUST NOT).
        params.push(['client_id', this.fx.clientId], ['client_secret', this.fx.clientSecret]);
        return basic(this.fx.clientId, this.fx.clientSecret);
      case 6:
        params.push(['client_id', this.chance(0.5) ? this.fx.publicClientId : this.odd()]);
        return {};
      case 7:
        return {
          authorization: this.pick([
            'Basic',
            'Basic ',
            'Basic !!!',
            `Basic ${Buffer.from('no-colon').toString('base64')}`,
            `Basic ${Buffer.from(`${'i'.repeat(5000)}:s`).toString('base64')}`,
            'Bearer x',
            'basic',
            `Basic ${Buffer.from('%zz:%zz').toString('base64')}`,
          ]),
        };
      default:
        return {};
    }
  }

  /** The next request: two thirds token requests, the rest the other endpoints. */
  next(): OAuthFuzzRequest {
    if (this.chance(0.67)) return this.tokenRequest();
    return this.other();
  }

  private tokenRequest(): OAuthFuzzRequest {
    const params = this.grantParams();
    const headers = this.clientAuth(params);
    const form = () => params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const roll = this.int(14);
    if (roll < 8)
      return {
        kind: 'token: form',
        method: 'POST',
        path: TOKEN_PATH,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: form(),
      };
    if (roll < 10) {
      const json: Record<string, unknown> = Object.fromEntries(params);
      if (this.chance(0.3))
        json[this.pick(params.map(([k]) => k).concat('password'))] = this.pick<unknown>([
          { $ne: null },
          ['a', 'b'],
          12,
          null,
          true,
          { nested: {} },
        ]);
      return {
        kind: 'token: JSON',
        method: 'POST',
        path: TOKEN_PATH,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(json),
      };
    }
    switch (roll) {
      case 10:
        return {
          kind: 'token: broken body',
          method: 'POST',
          path: TOKEN_PATH,
          headers: { 'content-type': this.pick(['application/json', 'application/x-www-form-urlencoded']), ...headers },
          body: this.pick([
            '{',
            '[]',
            'null',
            '"s"',
            '%',
            '=&=&',
            'a=%E0%A4%A',
            '{"grant_type": "password", "grant_type": "otp"}',
            '\u0000\u0001',
            '',
          ]),
        };
      case 11:
        return {
          kind: 'token: wrong media type',
          method: 'POST',
          path: TOKEN_PATH,
          headers: {
            'content-type': this.pick([
              'text/plain',
              'multipart/form-data; boundary=x',
              'application/xml',
              'application/x-www-form-urlencodedx',
              'application/jsonp',
            ]),
            ...headers,
          },
          body: form(),
        };
      case 12:
        return {
          kind: 'token: oversized',
          method: 'POST',
          path: TOKEN_PATH,
          headers: { 'content-type': this.pick(['application/x-www-form-urlencoded', 'application/json']), ...headers },
          body: this.chance(0.5)
            ? `${form()}&pad=${'p'.repeat(60_000 + this.int(200_000))}`
            : JSON.stringify({ ...Object.fromEntries(params), pad: 'p'.repeat(60_000 + this.int(200_000)) }),
        };
      default:
        if (this.chance(0.5))
          return {
            kind: 'token: odd encoding',
            method: 'POST',
            path: TOKEN_PATH,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'content-encoding': this.pick(['gzip', 'br', 'deflate', 'identity, gzip']),
              ...headers,
            },
            body: form(),
          };
        return {
          kind: 'token: wrong method',
          method: this.pick(['GET', 'PUT', 'DELETE', 'PATCH']),
          path: `${TOKEN_PATH}?${form()}`,
          headers,
        };
    }
  }

  private other(): OAuthFuzzRequest {
    const json = { 'content-type': 'application/json' };
    const formType = { 'content-type': 'application/x-www-form-urlencoded' };
    const basic = {
      authorization: `Basic ${Buffer.from(`${this.fx.clientId}:${this.chance(0.8) ? this.fx.clientSecret : 'nope'}`).toString('base64')}`,
    };
    const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();
    switch (this.int(9)) {
      case 0: {
        const body = this.pick<unknown>([
          { client_id: this.fx.clientId, username: this.maybe(this.fx.email) },
          { client_id: this.odd(), username: this.odd() },
          { username: { $ne: null } },
          [],
          'x',
          { client_id: this.fx.clientId },
        ]);
        return this.chance(0.7)
          ? { kind: 'otp request', method: 'POST', path: '/oauth2/otp', headers: json, body: JSON.stringify(body) }
          : {
              kind: 'otp request',
              method: 'POST',
              path: '/oauth2/otp',
              headers: formType,
              body: qs({ client_id: this.fx.clientId, username: this.maybe(this.fx.email) }),
            };
      }
      case 1:
        return {
          kind: 'introspection',
          method: 'POST',
          path: '/oauth2/introspect',
          headers: { ...formType, ...(this.chance(0.8) ? basic : {}) },
          body: qs({
            token: this.token(this.fx.accessTokens.concat(this.fx.refreshTokens)),
            ...(this.chance(0.4)
              ? { token_type_hint: this.pick(['access_token', 'refresh_token', 'id_token', this.odd()]) }
              : {}),
          }),
        };
      case 2:
        return {
          kind: 'revocation',
          method: 'POST',
          path: '/oauth2/revoke',
          headers: { ...formType, ...(this.chance(0.8) ? basic : {}) },
          body: qs({
            token: this.token(this.fx.refreshTokens.concat(this.fx.accessTokens)),
            ...(this.chance(0.4) ? { token_type_hint: this.pick(['access_token', 'refresh_token', this.odd()]) } : {}),
          }),
        };
      case 3: {
        const params: Record<string, string> = {
          client_id: this.maybe(this.fx.publicClientId),
          response_type: this.maybe('code'),
          redirect_uri: this.maybe(this.fx.redirectUri),
          scope: this.maybe('openid cart'),
        };
        if (this.chance(0.6))
          Object.assign(params, {
            code_challenge: this.maybe('c'.repeat(43)),
            code_challenge_method: this.pick(['S256', 'plain', this.odd()]),
          });
        if (this.chance(0.3))
          params[
            this.pick(['request', 'request_uri', 'prompt', 'max_age', 'claims', 'response_mode', 'nonce', 'state'])
          ] = this.odd();
        return {
          kind: 'authorize',
          method: this.pick(['GET', 'GET', 'POST']),
          path: `/oauth2/authorize?${qs(params)}`,
          headers: {},
        };
      }
      case 4:
        // Header values must be Latin-1 to be sent at all.
        return {
          kind: 'userinfo',
          method: this.pick(['GET', 'POST']),
          path: '/oauth2/userinfo',
          headers: {
            authorization: `${this.pick(['Bearer', 'bearer', 'DPoP', 'Basic'])} ${this.token(this.fx.accessTokens).replace(/[^\x20-\xff]/g, '?')}`,
          },
        };
      case 5:
        return {
          kind: 'interaction',
          method: this.pick(['GET', 'POST']),
          path: `/oauth2/interaction/${encodeURIComponent(this.odd() || 'x')}${this.pick(['', '/login', '/confirm', '/abort'])}`,
          headers: formType,
          body: qs({ email: this.maybe(this.fx.email), password: this.odd() }),
        };
      case 6:
        return {
          kind: 'end session',
          method: this.pick(['GET', 'POST']),
          path: `/oauth2/session/end?${qs({ id_token_hint: this.odd(), post_logout_redirect_uri: this.odd(), state: this.odd() })}`,
          headers: {},
        };
      case 7:
        return {
          kind: 'metadata',
          method: this.pick(['GET', 'HEAD', 'POST', 'OPTIONS']),
          path: this.pick([
            '/oauth2/.well-known/openid-configuration',
            '/.well-known/oauth-authorization-server/oauth2',
            '/oauth2/jwks',
            `/oauth2/jwks?${this.odd()}`,
          ]),
          headers: {},
        };
      default:
        return {
          kind: 'unknown path',
          method: this.pick(['GET', 'POST']),
          path: `/oauth2/${encodeURIComponent(this.odd())}/${this.pick(['token', 'reg', 'device/auth', 'backchannel', ''])}`,
          headers: {},
        };
    }
  }
}
