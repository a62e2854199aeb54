// The built service as a real process: bad configuration exits 1, SIGTERM drains in-flight requests and exits 0.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  lexicographicSortSchema,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
import { projectRoot } from '../../src/version.js';
import { ensureBuilt, distPath } from '../helpers/built.js';
import { spawnNode } from '../helpers/child.js';
import { statusOf } from '../helpers/status.js';

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

/** The start bundle on an in-memory store (or what `env` sets instead), logging at info. */
const spawnService = (env: Record<string, string> = {}) =>
  spawnNode(distPath('bundle/main.js'), [], {
    PORT: '0',
    HOST: '127.0.0.1',
    STORE: 'memory',
    SEED: 'none',
    LOG_LEVEL: 'info',
    ...env,
  });

/** The origin a started service logged it listens on. */
async function listeningOrigin(child: ReturnType<typeof spawnNode>): Promise<string> {
  const listening = await child.waitFor((l) => typeof l.url === 'string' && String(l.msg).includes('listening'));
  return new URL(String(listening.url)).origin;
}

test('a bad environment variable stops the start with a clear message and exit code 1', async () => {
  const child = spawnNode(distPath('bundle/main.js'), [], { PORT: 'eighty', STORE: 'memory' });
  expect(await child.exited).toBe(1);
  const stderr = child.stderr.join('');
  expect(stderr).toContain('Invalid configuration');
  expect(stderr).toContain('PORT');
});

test('SIGTERM stops accepting, lets the in-flight request finish, closes the store and exits 0', async () => {
  const child = spawnService();
  const url = new URL(await listeningOrigin(child));

  const ready = await fetch(`${url.origin}/readyz`);
  expect(ready.status).toBe(200);

  // An in-flight request: headers sent, body held back until after SIGTERM.
  const body = JSON.stringify({ query: '{ service { version store { reachable } } }' });
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    setTimeout(() => {
      child.proc.kill('SIGTERM');
      setTimeout(() => req.end(body.slice(10)), 300);
    }, 100);
  });

  const answered = await response;
  expect(answered.status).toBe(200);
  expect(JSON.parse(answered.text).data.service.store.reachable).toBe(true);
  expect(await child.exited).toBe(0);
  expect(child.lines.some((l) => l.msg === 'shutdown complete')).toBe(true);
}, 60_000);

test('a SIGTERM as soon as /readyz answers (the rest of the start still running) still drains, closes the store and exits 0', async () => {
  const port = await freePort();
  const child = spawnService({ PORT: String(port) });
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  child.proc.kill('SIGTERM');
  expect(await child.exited).toBe(0);
  expect(child.lines.some((l) => l.msg === 'shutdown complete')).toBe(true);
  expect(child.lines.some((l) => l.msg === 'engine closed')).toBe(true);
}, 60_000);

// The start overlaps its parts (the engine's thread opens the store while the service loads; the OAuth keys are
// made while the schema is built): none of them may still be missing when /readyz first says 200.
test('the first /readyz 200 of a new store comes with the engine, the schema and the OAuth keys ready', async () => {
  const port = await freePort();
  const child = spawnService({ PORT: String(port) });
  const origin = `http://127.0.0.1:${port}`;
  let ready: Response | undefined;
  while (!ready) {
    ready = await fetch(`${origin}/readyz`).then(
      (r) => (r.status === 200 ? r : undefined),
      () => undefined,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 2));
  }
  expect(await ready.json()).toMatchObject({ status: 'ready', store: { reachable: true, embedded: true } });
  const [answer, jwks] = await Promise.all([
    fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ pages(first: 1) { edges { node { id } } } }' }),
    }),
    fetch(`${origin}/oauth2/jwks`),
  ]);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ data: { pages: { edges: [] } } });
  expect(jwks.status).toBe(200);
  const { keys } = (await jwks.json()) as { keys: Array<{ alg: string }> };
  expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
  // The engine's start-up lines, sent from its thread before the logger existed, are in the log, in order.
  const messages = child.lines.map((l) => l.msg);
  expect(messages.indexOf('engine listening')).toBeGreaterThanOrEqual(0);
  expect(messages.indexOf('engine listening')).toBeLessThan(messages.indexOf('embedded store engine started'));
  child.proc.kill('SIGTERM');
  expect(await child.exited).toBe(0);
}, 60_000);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// A new data directory gets its OAuth keys made while the service loads; a store that has keys keeps them.
test('a new data directory publishes the keys it generated, and the next start on it the same ones', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'gateway-keys-')), 'data');
  const publishedKids = async (): Promise<string[]> => {
    const child = spawnService({ STORE: 'disk', DATA_DIR: dir });
    const jwks = await fetch(`${await listeningOrigin(child)}/oauth2/jwks`);
    expect(jwks.status).toBe(200);
    const { keys } = (await jwks.json()) as { keys: Array<{ alg: string; kid: string }> };
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    child.proc.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    return keys.map((k) => k.kid).sort();
  };
  try {
    const first = await publishedKids();
    expect(await publishedKids()).toEqual(first);
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true });
  }
}, 90_000);

test('the embedded engine runs on a thread of its own, and shuts down with the service', async () => {
  const child = spawnService();
  const started = await child.waitFor((l) => l.msg === 'embedded store engine started');
  expect(started.thread).toBe(true);
  const ready = await fetch(`${await listeningOrigin(child)}/readyz`);
  expect(ready.status).toBe(200);
  // The service's clients reach it over a Unix domain socket of the process's own, removed when it closes.
  const sockets = (): string[] =>
    readdirSync(tmpdir()).filter((f) => f.startsWith(`gateway-engine-${child.proc.pid}-`) && f.endsWith('.sock'));
  expect(sockets()).toHaveLength(1);
  child.proc.kill('SIGTERM');
  expect(await child.exited).toBe(0);
  expect(sockets()).toEqual([]);
  // The engine's own log lines cross from its thread.
  expect(child.lines.some((l) => l.msg === 'engine closed')).toBe(true);
}, 60_000);

test('an engine that cannot start stops the service with a clear message and exit code 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-engine-'));
  const notADirectory = join(dir, 'file');
  writeFileSync(notADirectory, 'not a data directory');
  const child = spawnService({ STORE: 'disk', DATA_DIR: notADirectory });
  expect(await child.exited).toBe(1);
  expect(child.stderr.join('')).toContain('gateway failed to start: the embedded store engine did not start');
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

// The start bundle joins every module into a few files, where two classes of one name would be renamed
// (Issue2): type-graphql names GraphQL types after classes, so the served schema must still be schema.graphql.
test('the start bundle serves the schema the code declares, every type under its own name', async () => {
  const child = spawnService({ INTROSPECTION: 'true' });
  const answer = await fetch(`${await listeningOrigin(child)}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  expect(answer.status).toBe(200);
  const served = buildClientSchema(((await answer.json()) as { data: IntrospectionQuery }).data);
  const declared = buildSchema(readFileSync(join(projectRoot, 'schema.graphql'), 'utf8'));
  expect(printSchema(lexicographicSortSchema(served))).toBe(printSchema(lexicographicSortSchema(declared)));
  child.proc.kill('SIGTERM');
  expect(await child.exited).toBe(0);
}, 60_000);

test('answering GraphQL (POST and GET), OAuth discovery and REST prints nothing on stderr, no warning either', async () => {
  const child = spawnService();
  const origin = await listeningOrigin(child);
  const posted = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  expect(await posted.json()).toEqual({ data: { __typename: 'Query' } });
  const got = await fetch(
    `${origin}/graphql?query=${encodeURIComponent('query Q($n: Int) { pages(first: $n) { totalCount } }')}&variables=${encodeURIComponent('{"n":1}')}`,
  );
  expect(await got.json()).toEqual({ data: { pages: { totalCount: 0 } } });
  expect(await statusOf(`${origin}/oauth2/.well-known/openid-configuration`)).toBe(200);
  expect(await statusOf(`${origin}/cms/page/nope/issues`)).toBe(404);
  child.proc.kill('SIGTERM');
  expect(await child.exited).toBe(0);
  expect(child.stderr.join('')).toBe('');
}, 60_000);
