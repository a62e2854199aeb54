// Refresh tokens for the refresh_token grant scenario. Refresh tokens rotate on every use (the answer
// carries the next one and the used one is spent), so a request can never repeat a token: the run
// starts from a pool minted with the password grant of the demo first-party client, every request
// takes a token out of the pool, and every answer puts its rotated token back. The pool therefore
// holds one live token per connection in flight plus spares, and no token is ever presented twice.
import { DEMO_CUSTOMER, DEMO_FIRST_PARTY_CLIENT } from '../src/seed/customers.seed.js';
import type { Check } from './load.js';

export const TOKEN_PATH = '/oauth2/access_token';

const clientAuthorization = `Basic ${Buffer.from(`${DEMO_FIRST_PARTY_CLIENT.clientId}:${DEMO_FIRST_PARTY_CLIENT.secret}`).toString('base64')}`;

export const tokenHeaders = { 'content-type': 'application/x-www-form-urlencoded', authorization: clientAuthorization };

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
}

/** One password grant for the demo customer; returns its access and refresh tokens. */
async function passwordGrant(baseUrl: string): Promise<TokenAnswer> {
  const res = await fetch(`${baseUrl}${TOKEN_PATH}`, {
    method: 'POST',
    headers: tokenHeaders,
    body: new URLSearchParams({
      grant_type: 'password',
      username: DEMO_CUSTOMER.email,
      password: DEMO_CUSTOMER.password,
      scope: 'openid offline_access cart',
    }),
  });
  const body = (await res.json()) as TokenAnswer;
  if (res.status !== 200 || !body.refresh_token || !body.access_token)
    throw new Error(`password grant answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function mintOne(baseUrl: string): Promise<string> {
  return (await passwordGrant(baseUrl)).refresh_token!;
}

/** An access token of the demo customer (the signed-in reader of the benchmark). */
export async function demoAccessToken(baseUrl: string): Promise<string> {
  return (await passwordGrant(baseUrl)).access_token!;
}

export class RefreshTokenPool {
  private readonly tokens: string[] = [];
  /** Requests that found the pool empty (should stay 0: the pool is larger than the connections). */
  starved = 0;

  get size(): number {
    return this.tokens.length;
  }

  /** Mints `count` tokens, a few at a time (each password grant costs an Argon2 hash on the service). */
  async fill(baseUrl: string, count: number): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        next++;
        this.tokens.push(await mintOne(baseUrl));
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  }

  /** The form body of the next refresh_token grant. */
  nextBody(): string {
    const token = this.tokens.shift();
    if (!token) this.starved++;
    return `grant_type=refresh_token&refresh_token=${encodeURIComponent(token ?? 'pool-empty')}`;
  }

  /** Takes the rotated token out of an answer and returns it to the pool. */
  readonly onAnswer = (status: number, body: string): void => {
    if (status !== 200) return;
    try {
      const parsed = JSON.parse(body) as TokenAnswer;
      if (parsed.refresh_token) this.tokens.push(parsed.refresh_token);
    } catch {
      // counted as a failure by the check
    }
  };
}

/** A refresh answer is right when it is 200 with a new access token and a new refresh token. */
export const tokenCheck: Check = (status, body) => {
  if (status !== 200) return `status ${status}: ${body.slice(0, 300)}`;
  try {
    const parsed = JSON.parse(body) as TokenAnswer;
    if (typeof parsed.access_token !== 'string' || typeof parsed.refresh_token !== 'string')
      return `no tokens in ${body.slice(0, 300)}`;
    return null;
  } catch {
    return `not JSON: ${body.slice(0, 300)}`;
  }
};
