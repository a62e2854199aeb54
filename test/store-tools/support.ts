// Shared pieces of the store-tools tests: the built CLI, free ports, and what a client sees of a gateway
// (the README's nested query, both REST lists, the demo customer's tokens).
import { createServer } from 'node:net';
import { DEMO_CUSTOMER, DEMO_FIRST_PARTY_CLIENT } from '../../src/seed/customers.seed.js';
import { runBuiltScript, type ScriptResult } from '../helpers/built.js';

export const storeCli = (args: string[], env: Record<string, string> = {}): Promise<ScriptResult> =>
  runBuiltScript('tools/store.js', args, env);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const NESTED_QUERY = `{
  page(id: "page-1") {
    name
    issues(first: 3) {
      totalCount
      edges { node { title date
        contents { category { name } articles { title accessAllowed preview authors { name } keywords { name } } } } }
    }
  }
}`;

async function gql(
  url: string,
  query: string,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What an anonymous client reads: the nested query and the two REST lists (status, ETag, body). */
export async function publicAnswers(url: string): Promise<Record<string, unknown>> {
  const rest = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    return { status: res.status, etag: res.headers.get('etag'), body: await res.json() };
  };
  return {
    nested: await gql(url, NESTED_QUERY),
    issues: await rest('/cms/page/page-1/issues?page=1&limit=2'),
    categories: await rest('/cms/product/categories?lang=de&featured=true'),
  };
}

export async function tokenEndpoint(
  url: string,
  params: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${url}/oauth2/access_token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${DEMO_FIRST_PARTY_CLIENT.clientId}:${DEMO_FIRST_PARTY_CLIENT.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** The demo customer's tokens from the password grant (seeded demo data). */
export async function demoTokens(url: string): Promise<{ access: string; refresh: string }> {
  const res = await tokenEndpoint(url, {
    grant_type: 'password',
    username: DEMO_CUSTOMER.email,
    password: DEMO_CUSTOMER.password,
    scope: 'openid offline_access cart',
  });
  if (res.status !== 200) throw new Error(`password grant answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { access: res.body.access_token!, refresh: res.body.refresh_token! };
}

export const viewerId = async (url: string, token: string): Promise<unknown> =>
  ((await gql(url, '{ viewer { customerId } }', token)).body as { data?: { viewer?: { customerId?: string } } }).data
    ?.viewer?.customerId ?? null;
