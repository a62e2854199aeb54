// The authorization-code flow end to end without a browser: authorize, the login page, the consent page,
// the redirect with a code, and the exchange with PKCE S256; then each documented failure.
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer } from '../helpers/tokens.js';
import { Browser, formAction, type Page } from './browser-flow.js';
import * as oidc from 'openid-client';
import { INVALID_REQUEST, jwtClaims, newClient, pkcePair, relyingParty, tokenRequest } from './support.js';

const REDIRECT = 'http://localhost:8080/cb';

let svc: TestService;
let spa: { clientId: string };
let customer: { customerId: string; email: string; password: string };

beforeAll(async () => {
  svc = await startTestService({ env: { LOGIN_MAX_FAILURES_PER_IP: '1000' } });
  spa = await newClient(svc, {
    kind: 'public',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: [REDIRECT],
  });
  customer = await ensureCustomer(svc, { email: 'browser@example.test' });
});
afterAll(async () => {
  await svc?.close();
});

function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries({
    client_id: spa.clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid offline_access cart',
    prompt: 'consent',
    state: 'st-1',
    ...params,
  })) {
    if (v !== undefined) query.set(k, v);
  }
  return `/oauth2/authorize?${query}`;
}

/** Walks login and consent; returns the final redirect to the client (its Location carries the code). */
async function signInAndConsent(browser: Browser, challenge: string): Promise<URL> {
  const login = await browser.follow(
    await browser.get(authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256' })),
  );
  expect(login.status).toBe(200);
  expect(login.html).toContain('name="password"');
  expect(login.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(login.headers.get('cache-control')).toBe('no-store');
  const afterLogin = await browser.follow(
    await browser.post(formAction(login.html, /\/login$/), { email: customer.email, password: customer.password }),
  );
  expect(afterLogin.status).toBe(200);
  expect(afterLogin.html).toContain('See and change your shopping carts');
  expect(afterLogin.html).toContain('Stay signed in');
  const done = await browser.follow(await browser.post(formAction(afterLogin.html, /\/confirm$/)));
  expect(done.location).toBeTruthy();
  return new URL(done.location!);
}

const exchange = (
  code: string,
  verifier?: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) =>
  tokenRequest(
    svc,
    {
      grant_type: 'authorization_code',
      client_id: spa.clientId,
      code,
      redirect_uri: REDIRECT,
      ...(verifier ? { code_verifier: verifier } : {}),
      ...extra,
    },
    { headers },
  );

// offline_access (a refresh token) needs prompt=consent in the authorization request (OIDC Core §11).
test('the whole flow: login page, consent page, code at the redirect URI, exchange with the verifier, refresh as a public client', async () => {
  const browser = new Browser(svc);
  const { verifier, challenge } = pkcePair();
  const callback = await signInAndConsent(browser, challenge);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  expect(callback.searchParams.get('state')).toBe('st-1');
  expect(callback.searchParams.get('iss')).toBe(svc.config.oauth.issuer);
  const code = callback.searchParams.get('code')!;
  expect(code).toBeTruthy();

  // From the single-page app's own origin (one of its redirect URIs' origins): CORS allows it.
  const tokens = await exchange(code, verifier, {}, { origin: 'http://localhost:8080' });
  expect(tokens.status).toBe(200);
  expect(tokens.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
  expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'openid offline_access cart' });
  expect(jwtClaims(String(tokens.body.access_token))).toMatchObject({
    sub: customer.customerId,
    aud: svc.config.oauth.audience,
    client_id: spa.clientId,
  });
  expect(jwtClaims(String(tokens.body.id_token))).toMatchObject({ sub: customer.customerId, aud: spa.clientId });

  const foreign = await tokenRequest(
    svc,
    { grant_type: 'refresh_token', client_id: spa.clientId, refresh_token: String(tokens.body.refresh_token) },
    { headers: { origin: 'https://evil.example' } },
  );
  expect(foreign.status).toBe(400);
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  const refreshed = await tokenRequest(svc, {
    grant_type: 'refresh_token',
    client_id: spa.clientId,
    refresh_token: String(tokens.body.refresh_token),
  });
  expect(refreshed.status).toBe(200);
  expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);

  // A second authorization in the same browser session, for what was granted already, skips login and consent.
  const again = await browser.follow(
    await browser.get(
      authorizeUrl({
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 'st-2',
        prompt: undefined,
        scope: 'openid cart',
      }),
    ),
  );
  expect(new URL(again.location!).searchParams.get('code')).toBeTruthy();
});

test('a wrong password re-renders the login page with an error; the right one then proceeds', async () => {
  const browser = new Browser(svc);
  const login = await browser.follow(
    await browser.get(authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })),
  );
  const action = formAction(login.html, /\/login$/);
  const wrong = await browser.post(action, { email: customer.email, password: 'wrong-password' });
  expect(wrong.status).toBe(200);
  expect(wrong.html).toContain('Wrong e-mail or password.');
  const right = await browser.follow(
    await browser.post(action, { email: customer.email, password: customer.password }),
  );
  expect(right.html).toContain('would like to');
});

test('an e-mail of thousands of characters on the login page is a 400 page asking again, not a 500', async () => {
  const browser = new Browser(svc);
  const login = await browser.follow(
    await browser.get(authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })),
  );
  const action = formAction(login.html, /\/login$/);
  const long = await browser.post(action, { email: `${'x'.repeat(5000)}@example.test`, password: 'whatever' });
  expect(long.status).toBe(400);
  expect(long.html).toContain('Enter your e-mail and password.');
  const right = await browser.follow(
    await browser.post(action, { email: customer.email, password: customer.password }),
  );
  expect(right.html).toContain('would like to');
});

test('denying consent sends access_denied to the client', async () => {
  const browser = new Browser(svc);
  const login = await browser.follow(
    await browser.get(authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })),
  );
  const consent = await browser.follow(
    await browser.post(formAction(login.html, /\/login$/), { email: customer.email, password: customer.password }),
  );
  const denied: Page = await browser.follow(await browser.post(formAction(consent.html, /\/abort$/)));
  const callback = new URL(denied.location!);
  expect(callback.searchParams.get('error')).toBe('access_denied');
  expect(callback.searchParams.get('code')).toBeNull();
});

test('PKCE is required: an authorization request without a code_challenge is refused at the redirect URI', async () => {
  const browser = new Browser(svc);
  const res = await browser.get(authorizeUrl({}));
  const callback = new URL(res.location!);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  expect(callback.searchParams.get('error')).toBe('invalid_request');
  expect(callback.searchParams.get('error_description')).toContain('PKCE');
});

test('PKCE plain is refused; only S256', async () => {
  const browser = new Browser(svc);
  const res = await browser.get(authorizeUrl({ code_challenge: pkcePair().verifier, code_challenge_method: 'plain' }));
  expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_request');
});

test('a wrong or missing code_verifier is 400 invalid_grant', async () => {
  const browser = new Browser(svc);
  const { challenge } = pkcePair();
  const code = (await signInAndConsent(browser, challenge)).searchParams.get('code')!;
  const wrong = await exchange(code, pkcePair().verifier);
  expect(wrong.status).toBe(400);
  expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });

  const code2 = (await signInAndConsent(new Browser(svc), challenge)).searchParams.get('code')!;
  const missing = await exchange(code2);
  expect(missing.status).toBe(400);
  expect(missing.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
});

test('a code used twice: the second exchange is 400 invalid_grant and revokes what the first one issued, access token included', async () => {
  const { verifier, challenge } = pkcePair();
  const code = (await signInAndConsent(new Browser(svc), challenge)).searchParams.get('code')!;
  const first = await exchange(code, verifier);
  expect(first.status).toBe(200);
  const second = await exchange(code, verifier);
  expect(second.status).toBe(400);
  expect(second.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  const refresh = await tokenRequest(svc, {
    grant_type: 'refresh_token',
    client_id: spa.clientId,
    refresh_token: String(first.body.refresh_token),
  });
  expect(refresh.status).toBe(400);
  expect(refresh.body.error).toBe('invalid_grant');
  // The access token of the first exchange too, at once.
  const read = await svc.gql('{ service { version } }', undefined, {
    authorization: `Bearer ${String(first.body.access_token)}`,
  });
  expect(read.status).toBe(401);
});

test("a redirect_uri different from the authorization request's is 400 invalid_grant", async () => {
  const { verifier, challenge } = pkcePair();
  const code = (await signInAndConsent(new Browser(svc), challenge)).searchParams.get('code')!;
  const res = await exchange(code, verifier, { redirect_uri: 'http://localhost:8080/other' });
  expect(res.status).toBe(400);
  expect(res.body.error).toBe('invalid_grant');
});

test('an unregistered redirect_uri is never redirected to: the error is a page', async () => {
  const res = await new Browser(svc).get(
    authorizeUrl({
      redirect_uri: 'https://evil.example/cb',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }),
  );
  expect(res.status).toBe(400);
  expect(res.location).toBeNull();
  expect(res.headers.get('content-type')).toContain('text/html');
  expect(res.html).toContain('redirect_uri');
});

test('an interaction page without its cookie is a 400 page, not a 500', async () => {
  const res = await fetch(`${svc.url}/oauth2/interaction/does-not-exist`);
  expect(res.status).toBe(400);
  expect(await res.text()).toContain('expired');
});

describe('RP-initiated logout', () => {
  test('discovery lists end_session_endpoint', async () => {
    const rp = await relyingParty(svc, spa.clientId);
    expect(rp.serverMetadata().end_session_endpoint).toBe(`${svc.url}/oauth2/session/end`);
  });

  test('signing out ends the browser session: the next authorization asks to sign in again; offline access survives (OIDC Core §11)', async () => {
    const browser = new Browser(svc);
    const { verifier, challenge } = pkcePair();
    const callback = await signInAndConsent(browser, challenge);
    const tokens = await exchange(callback.searchParams.get('code')!, verifier);
    expect(tokens.status).toBe(200);

    const rp = await relyingParty(svc, spa.clientId);
    const endSession = oidc.buildEndSessionUrl(rp, {
      id_token_hint: String(tokens.body.id_token),
      post_logout_redirect_uri: REDIRECT,
      state: 'bye',
    });
    const confirm = await browser.get(endSession.pathname + endSession.search);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toContain("default-src 'none'");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.html)?.[1];
    expect(xsrf).toBeTruthy();
    const done = await browser.post(formAction(confirm.html, /\/session\/end\/confirm$/), {
      xsrf: xsrf!,
      logout: 'yes',
    });
    const back = new URL(done.location!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('bye');

    const again = await browser.follow(
      await browser.get(
        authorizeUrl({
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          prompt: undefined,
          scope: 'openid cart',
        }),
      ),
    );
    expect(again.status).toBe(200);
    expect(again.html).toContain('name="password"');
    const refreshed = await tokenRequest(svc, {
      grant_type: 'refresh_token',
      client_id: spa.clientId,
      refresh_token: String(tokens.body.refresh_token),
    });
    expect(refreshed.status).toBe(200);
  });

  test('signing out revokes a grant without offline_access: its access token is refused at once', async () => {
    const browser = new Browser(svc);
    const { verifier, challenge } = pkcePair();
    const login = await browser.follow(
      await browser.get(
        authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid cart' }),
      ),
    );
    const consent = await browser.follow(
      await browser.post(formAction(login.html, /\/login$/), { email: customer.email, password: customer.password }),
    );
    const done = await browser.follow(await browser.post(formAction(consent.html, /\/confirm$/)));
    const tokens = await exchange(new URL(done.location!).searchParams.get('code')!, verifier);
    expect(tokens.status).toBe(200);
    const bearer = { authorization: `Bearer ${String(tokens.body.access_token)}` };
    expect((await svc.gql('{ service { version } }', undefined, bearer)).status).toBe(200);

    const confirm = await browser.get(`/oauth2/session/end?client_id=${spa.clientId}`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.html)![1]!;
    const signedOut = await browser.post(formAction(confirm.html, /\/session\/end\/confirm$/), { xsrf, logout: 'yes' });
    expect(signedOut.status).toBe(303);
    expect((await svc.gql('{ service { version } }', undefined, bearer)).status).toBe(401);
  });

  test('a post_logout_redirect_uri the client did not register is refused', async () => {
    const browser = new Browser(svc);
    const res = await browser.get(
      `/oauth2/session/end?client_id=${spa.clientId}&post_logout_redirect_uri=${encodeURIComponent('https://evil.example/')}`,
    );
    expect(res.status).toBe(400);
    expect(res.html).toContain('post_logout_redirect_uri');
  });
});
