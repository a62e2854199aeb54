// Seeded fuzzing of the authorization server under /oauth2 (docs/api.md): token requests of every
// grant with right, wrong, repeated, missing and oversized parameters, every way of presenting a client, form,
// JSON and broken bodies, and odd calls to the other endpoints. Whatever a client sends: never a 5xx, never a
// stack trace or a file path; the token endpoint answers RFC 6749 §5.2 errors with the API's codes and
// texts; nothing is created by a refused request; and the service still issues and refreshes tokens afterwards.
// FUZZ_OAUTH_REQUESTS (default 800, sized for CI) and FUZZ_SEED (default 12) set the run; FUZZ_REPORT=1 prints figures.
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { INVALID_CLIENT, INVALID_REQUEST, newClient, tokenRequest, basic } from '../oauth/support.js';
import { OAuthFuzzer, TOKEN_PATH, type OAuthFuzzFixture, type OAuthFuzzRequest } from './oauth-generator.js';
import { statusOf } from '../helpers/status.js';

const REQUESTS = Number(process.env.FUZZ_OAUTH_REQUESTS ?? 800);
const SEED = Number(process.env.FUZZ_SEED ?? 12);
const CONCURRENCY = 6;
const LEAK =
  /\bat [\w.<>]+ \(|\bat .+:\d+:\d+|node_modules|\/work\/|\/src\/|\.ts:\d+|\.js:\d+|stacktrace|MongoServerError|E11000/i;
const REDIRECT = 'http://localhost:8080/cb';

/** RFC 6749 §5.2 codes (and RFC 8707's invalid_target; temporarily_unavailable for a rate limit). */
const TOKEN_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'temporarily_unavailable',
]);

let svc: TestService;
let fixture: OAuthFuzzFixture;

beforeAll(async () => {
  // Limits high enough that the run explores the grants rather than answering 429 to most of it (lockout.test.ts
  // and rate-limit.test.ts cover the limits themselves).
  svc = await startTestService({
    env: {
      LOGIN_MAX_FAILURES_PER_IP: '100000',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
      OTP_MAX_REQUESTS_PER_ADDRESS: '1000',
    },
  });
  await ensureTestClient(svc);
  const spa = await newClient(svc, {
    kind: 'public',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: [REDIRECT],
  });
  const customer = await ensureCustomer(svc, { email: 'fuzz-reader@example.test' });
  fixture = {
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    publicClientId: spa.clientId,
    redirectUri: REDIRECT,
    email: customer.email,
    password: customer.password,
    refreshTokens: [],
    accessTokens: [],
  };
}, 60_000);
afterAll(() => svc?.close());

interface Outcome {
  request: OAuthFuzzRequest;
  status: number;
  headers: Headers;
  text: string;
}

async function send(request: OAuthFuzzRequest): Promise<Outcome> {
  try {
    const res = await fetch(`${svc.url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
      redirect: 'manual',
    });
    return { request, status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    // No answer at all (the connection reset or closed): status 0.
    return {
      request,
      status: 0,
      headers: new Headers(),
      text: String((err as Error & { cause?: Error }).cause ?? err),
    };
  }
}

/** What is wrong with an answer, if anything. */
function problemsOf(outcome: Outcome): string[] {
  const problems: string[] = [];
  const { request, status, text } = outcome;
  if (status >= 500) problems.push(`status ${status}`);
  if (status === 0) problems.push(`no answer: ${text}`);
  if (LEAK.test(text)) problems.push('stack trace, file path or driver message in the body');
  // The API's statuses (docs/api.md) for what is wrong with the request itself, whatever else it holds.
  const expected: Record<string, number> = {
    'token: wrong method': 405,
    'token: oversized': 413,
    'token: wrong media type': 415,
    'token: odd encoding': 415,
  };
  if (expected[request.kind] !== undefined && status !== expected[request.kind])
    problems.push(`${status} where docs/api.md says ${expected[request.kind]}`);
  if (!request.path.startsWith(TOKEN_PATH)) return problems;

  if (![200, 400, 401, 405, 413, 415, 429].includes(status)) problems.push(`token endpoint status ${status}`);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [...problems, 'token endpoint body is not JSON'];
  }
  if (!outcome.headers.get('content-type')?.startsWith('application/json'))
    problems.push(`content-type ${outcome.headers.get('content-type')}`);
  if (!outcome.headers.get('cache-control')?.includes('no-store')) problems.push('no Cache-Control: no-store');
  if (status === 200) {
    if (body.token_type !== 'Bearer' || typeof body.access_token !== 'string')
      problems.push('200 without a Bearer access token');
    return problems;
  }
  if (typeof body.error !== 'string' || !TOKEN_ERRORS.has(body.error))
    problems.push(`error ${JSON.stringify(body.error)}`);
  if (
    (status === 400 || status === 401) &&
    body.error_description !== INVALID_REQUEST &&
    body.error_description !== INVALID_CLIENT
  ) {
    problems.push(`error_description ${JSON.stringify(body.error_description)}`);
  }
  if (status === 401 && body.error !== 'invalid_client') problems.push(`401 with ${String(body.error)}`);
  if (status === 400 && body.error === 'invalid_client') problems.push('invalid_client with 400');
  if (status === 429 && !outcome.headers.get('retry-after')) problems.push('429 without Retry-After');
  if (status === 405 && outcome.headers.get('allow') !== 'POST') problems.push('405 without Allow: POST');
  return problems;
}

/** Tokens from successful answers are fed back into the run (to be refreshed, rotated, replayed, revoked). */
function harvest(outcome: Outcome): void {
  if (outcome.status !== 200 || outcome.request.path !== TOKEN_PATH) return;
  const body = JSON.parse(outcome.text) as { access_token?: string; refresh_token?: string };
  if (body.refresh_token && fixture.refreshTokens.length < 100) fixture.refreshTokens.push(body.refresh_token);
  if (body.access_token && fixture.accessTokens.length < 100) fixture.accessTokens.push(body.access_token);
}

test(`${REQUESTS} seeded requests to /oauth2 (seed ${SEED}): no server fault, no leak, RFC 6749 error bodies`, async () => {
  const customersBefore = await svc.store.collection('customers').countDocuments();
  const clientsBefore = await svc.store.collection('clients').countDocuments();
  const fuzzer = new OAuthFuzzer(SEED, fixture);
  const failures: Array<{ kind: string; status: number; problems: string[]; request: string; answer: string }> = [];
  const byKind = new Map<string, number>();
  const byStatus = new Map<number, number>();
  const kindStatus = new Map<string, number>();
  for (let sent = 0; sent < REQUESTS; sent += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, REQUESTS - sent) }, () => fuzzer.next());
    const outcomes = await Promise.all(batch.map(send));
    for (const outcome of outcomes) {
      byKind.set(outcome.request.kind, (byKind.get(outcome.request.kind) ?? 0) + 1);
      kindStatus.set(
        `${outcome.request.kind} ${outcome.status}`,
        (kindStatus.get(`${outcome.request.kind} ${outcome.status}`) ?? 0) + 1,
      );
      byStatus.set(outcome.status, (byStatus.get(outcome.status) ?? 0) + 1);
      const problems = problemsOf(outcome);
      if (problems.length) {
        const sentBody = typeof outcome.request.body === 'string' ? outcome.request.body : '';
        failures.push({
          kind: outcome.request.kind,
          status: outcome.status,
          problems,
          request: `${outcome.request.method} ${outcome.request.path.slice(0, 120)} ${JSON.stringify(outcome.request.headers).slice(0, 160)} ${sentBody.slice(0, 200)}`,
          answer: outcome.text.slice(0, 200),
        });
      } else {
        harvest(outcome);
      }
    }
  }
  if (process.env.FUZZ_REPORT) {
    console.log(
      JSON.stringify(
        {
          requests: REQUESTS,
          seed: SEED,
          failures: failures.length,
          issued: fixture.accessTokens.length,
          byStatus: Object.fromEntries(byStatus),
          byKind: Object.fromEntries([...kindStatus].sort()),
        },
        null,
        1,
      ),
    );
  }
  const summary = new Map<string, number>();
  for (const failure of failures) {
    const key = `${failure.kind}: ${failure.status} ${failure.problems.join(', ')}`;
    summary.set(key, (summary.get(key) ?? 0) + 1);
  }
  expect({ summary: Object.fromEntries(summary), first: failures.slice(0, 3) }).toEqual({ summary: {}, first: [] });
  // The run reached every kind of request and some succeeded (tokens were issued and fed back).
  expect(byKind.size).toBeGreaterThanOrEqual(REQUESTS >= 500 ? 16 : 1);
  if (REQUESTS >= 500) expect(fixture.accessTokens.length).toBeGreaterThan(0);

  // Nothing was created by the run: no account (third-party sign-in never verified), no client.
  expect(await svc.store.collection('customers').countDocuments()).toBe(customersBefore);
  expect(await svc.store.collection('clients').countDocuments()).toBe(clientsBefore);

  // The server still works for a well-behaved client.
  expect(await statusOf(`${svc.url}/readyz`)).toBe(200);
  // (A fresh account: the fuzzed one may rightly be locked by the run's wrong passwords.)
  const fresh = await ensureCustomer(svc, {});
  const issued = await tokenRequest(
    svc,
    { grant_type: 'password', username: fresh.email, password: fresh.password, scope: 'openid offline_access cart' },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );
  expect(issued.status).toBe(200);
  const refreshed = await tokenRequest(
    svc,
    { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );
  expect(refreshed.status).toBe(200);
  const viewer = await svc.gql<{ viewer: { customerId: string } | null }>('{ viewer { customerId } }', undefined, {
    authorization: `Bearer ${String(refreshed.body.access_token)}`,
  });
  expect(viewer.body.data?.viewer?.customerId).toBe(fresh.customerId);
}, 600_000);
