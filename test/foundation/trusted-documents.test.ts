// Documents named by id over HTTP in each TRUSTED_DOCUMENTS mode: `documentId` by POST and GET, APQ hashes,
// manifests per client and the public list, the allowlist `enforce` makes of them and who may bypass it, and
// the refusals of bad input, each a 4xx with its code.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewaySchema } from '../../src/graphql/build-schema.js';
import { validManifest } from '../../src/graphql/documents/check.js';
import { readManifest } from '../../src/graphql/documents/manifest.js';
import { createClient } from '../../src/oauth/clients.js';
import type { DocumentOwner } from '../../src/store/documents/trusted-document.doc.js';
import { addManifest } from '../../src/store/documents/trusted-documents.store.js';
import type { Store } from '../../src/store/store.js';
import { projectRoot } from '../../src/version.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, TEST_CLIENT_ID, tokenFor } from '../helpers/tokens.js';
import { collect, wsClient } from '../live/ws.js';

const fixture = (name: string): string => readFileSync(join(projectRoot, 'test/fixtures/documents', name), 'utf8');
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The public list (graphql-codegen's format) and the test client's manifest (Apollo's format). */
const WEB = JSON.parse(fixture('web.persisted-documents.json')) as Record<string, string>;
const MOBILE = JSON.parse(fixture('mobile.persisted-query-manifest.json')) as {
  operations: Array<{ id: string; name: string; body: string }>;
};
const [CHANNEL_ID, CHANNEL_DOC] = Object.entries(WEB)[0]!;
const MOBILE_CHANNEL = MOBILE.operations[0]!;
const OTHER_DOC = 'query OtherApp { channel(id: "11") { name description } }';
const ARBITRARY = 'query Arbitrary { channel(id: "11") { id description } }';
const POLL = 'subscription PollVotes { pollResultsChanged(pollId: "poll-1") { id votes } }';
/** Registered under graphql-codegen's default SHA-1 key: a custom identifier. */
const SHA1_DOC = 'query ChannelDescription { channel(id: "11") { description } }';
const SHA1_ID = createHash('sha1').update(SHA1_DOC).digest('hex');

async function register(store: Store, owner: DocumentOwner, name: string, manifest: string): Promise<void> {
  await addManifest(store, owner, name, validManifest(await buildGatewaySchema(), readManifest(manifest)));
}

async function start(mode: string, env: Record<string, string> = {}): Promise<TestService> {
  return startTestService({
    env: { TRUSTED_DOCUMENTS: mode, RESPONSE_CACHE_MB: '16', ...env },
    beforeStart: async (store) => {
      await store.db.collection('channels').insertOne({
        _id: '11' as never,
        name: 'Evening Edition',
        image: null,
        description: 'News at six',
        objectType: 'channel',
        configuration: { linkables: [], dynamicSections: [] },
      });
      await createClient(store, { clientId: 'other-app', name: 'Other app', kind: 'public', grantTypes: [] });
      await register(store, 'public', 'web@1', fixture('web.persisted-documents.json'));
      await register(store, `client:${TEST_CLIENT_ID}`, 'mobile@1', fixture('mobile.persisted-query-manifest.json'));
      await register(store, 'public', 'web-sha1@1', JSON.stringify({ [SHA1_ID]: SHA1_DOC }));
      await register(store, 'public', 'live@1', JSON.stringify({ [sha256(POLL)]: POLL }));
      await register(store, 'client:other-app', 'other@1', JSON.stringify({ [sha256(OTHER_DOC)]: OTHER_DOC }));
    },
  });
}

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: Record<string, unknown>; errors?: Array<{ message: string; extensions: Record<string, unknown> }> };
}

async function answer(res: Response): Promise<Answer> {
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

const post = (svc: TestService, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(params),
  }).then(answer);

const get = (
  svc: TestService,
  params: Record<string, string> | URLSearchParams,
  headers: Record<string, string> = {},
) => fetch(`${svc.url}/graphql?${new URLSearchParams(params).toString()}`, { headers }).then(answer);

function expectRefused(res: Answer, status: number, code: string): void {
  expect({ status: res.status, code: res.body.errors?.[0]?.extensions.code }).toEqual({ status, code });
  expect(res.body.data).toBeUndefined();
  expect(typeof res.body.errors![0]!.extensions.requestId).toBe('string');
}

const channelOf = (res: Answer) => (res.body.data as { channel?: Record<string, unknown> } | undefined)?.channel;

describe('TRUSTED_DOCUMENTS=allow (the default)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start('allow');
  });
  afterAll(() => svc.close());

  test('a public document by documentId: POST and GET, with variables', async () => {
    const byPost = await post(svc, { documentId: `sha256:${CHANNEL_ID}`, variables: { id: '11' } });
    expect(byPost.status).toBe(200);
    expect(channelOf(byPost)).toEqual({ id: '11', name: 'Evening Edition' });
    const byGet = await get(svc, { documentId: `sha256:${CHANNEL_ID}`, variables: '{"id":"11"}' });
    expect(byGet.body).toEqual(byPost.body);
  });

  test('an anonymous GET by documentId is cacheable like any GET: public Cache-Control, then a cache hit', async () => {
    const params = { documentId: `sha256:${CHANNEL_ID}`, variables: '{"id":"12"}' };
    const first = await get(svc, params);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('max-age=60, public');
    expect(first.headers.get('x-cache')).toBe('MISS');
    const second = await get(svc, params);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.body).toEqual(first.body);
  });

  test('an APQ hash alone runs a registered document never sent to this process; an unknown one is not found', async () => {
    const known = await post(svc, {
      extensions: { persistedQuery: { version: 1, sha256Hash: MOBILE_CHANNEL.id } },
    });
    // The mobile manifest is the test client's, not the public list's: Apollo's own answer for a hash it lacks.
    expect(known.body.errors![0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const hash = { persistedQuery: { version: 1, sha256Hash: CHANNEL_ID } };
    const byHash = await post(svc, { extensions: hash, variables: { id: '11' } });
    expect(channelOf(byHash)).toEqual({ id: '11', name: 'Evening Edition' });
    const unknown = await post(svc, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256('nothing') } } });
    expect(unknown.body.errors![0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('an unknown documentId is 404 PERSISTED_QUERY_NOT_FOUND', async () => {
    expectRefused(await post(svc, { documentId: `sha256:${sha256(ARBITRARY)}` }), 404, 'PERSISTED_QUERY_NOT_FOUND');
    expectRefused(await get(svc, { documentId: 'some-custom-id' }), 404, 'PERSISTED_QUERY_NOT_FOUND');
  });

  test('any document still runs, and APQ registers any document', async () => {
    expect(channelOf(await post(svc, { query: ARBITRARY }))).toEqual({ id: '11', description: 'News at six' });
    const hash = { persistedQuery: { version: 1, sha256Hash: sha256(ARBITRARY) } };
    expect((await post(svc, { query: ARBITRARY, extensions: hash })).status).toBe(200);
    expect(channelOf(await post(svc, { extensions: hash }))).toEqual({ id: '11', description: 'News at six' });
  });

  test("a client's manifest is its own: the client's tokens run it, anonymous callers and other clients do not", async () => {
    const { accessToken } = await tokenFor(svc, { scopes: ['openid'] });
    const mine = await post(svc, { documentId: `sha256:${MOBILE_CHANNEL.id}` }, bearer(accessToken));
    expect(channelOf(mine)).toEqual({ id: '11', name: 'Evening Edition' });
    // The public list is every caller's, signed in or not.
    const pub = await post(svc, { documentId: `sha256:${CHANNEL_ID}`, variables: { id: '11' } }, bearer(accessToken));
    expect(pub.status).toBe(200);
    expectRefused(await post(svc, { documentId: `sha256:${MOBILE_CHANNEL.id}` }), 404, 'PERSISTED_QUERY_NOT_FOUND');
    expectRefused(
      await post(svc, { documentId: `sha256:${sha256(OTHER_DOC)}` }, bearer(accessToken)),
      404,
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });

  test('malformed ids are 400 DOCUMENT_ID_INVALID', async () => {
    for (const documentId of [
      `sha256:${CHANNEL_ID.toUpperCase()}`,
      `sha256:${CHANNEL_ID.slice(1)}`,
      'sha256:',
      'md5:0123abc',
      'x-custom:abc',
      '',
      'a'.repeat(201),
      '../etc/passwd',
      7,
      null,
      ['sha256:' + CHANNEL_ID],
      { $ne: null },
    ]) {
      expectRefused(await post(svc, { documentId }), 400, 'DOCUMENT_ID_INVALID');
    }
    const twice = new URLSearchParams([
      ['documentId', `sha256:${CHANNEL_ID}`],
      ['documentId', `sha256:${CHANNEL_ID}`],
    ]);
    expectRefused(await get(svc, twice), 400, 'DOCUMENT_ID_INVALID');
  });

  test('an id and a document that disagree are 400 PERSISTED_QUERY_HASH_MISMATCH; agreeing ones run', async () => {
    const documentId = `sha256:${CHANNEL_ID}`;
    const variables = { id: '11' };
    expectRefused(await post(svc, { documentId, query: ARBITRARY }), 400, 'PERSISTED_QUERY_HASH_MISMATCH');
    expectRefused(
      await post(svc, {
        documentId,
        variables,
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256('x') } },
      }),
      400,
      'PERSISTED_QUERY_HASH_MISMATCH',
    );
    expect((await post(svc, { documentId, query: CHANNEL_DOC, variables })).status).toBe(200);
    // A custom id (graphql-codegen's SHA-1, an Apollo manifest's own) is checked against the text it names.
    expect(channelOf(await get(svc, { documentId: SHA1_ID }))).toEqual({ description: 'News at six' });
    expectRefused(await post(svc, { documentId: SHA1_ID, query: ARBITRARY }), 400, 'PERSISTED_QUERY_HASH_MISMATCH');
    expect((await post(svc, { documentId: SHA1_ID, query: SHA1_DOC })).status).toBe(200);
  });
});

describe('TRUSTED_DOCUMENTS=enforce', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start('enforce');
  });
  afterAll(() => svc.close());

  test('registered documents run by documentId (POST, GET), by APQ hash, and by their text', async () => {
    const variables = { id: '11' };
    expect(channelOf(await post(svc, { documentId: `sha256:${CHANNEL_ID}`, variables }))).toEqual({
      id: '11',
      name: 'Evening Edition',
    });
    const byGet = await get(svc, { documentId: `sha256:${CHANNEL_ID}`, variables: JSON.stringify(variables) });
    expect(byGet.status).toBe(200);
    const hash = { persistedQuery: { version: 1, sha256Hash: CHANNEL_ID } };
    expect((await post(svc, { extensions: hash, variables })).status).toBe(200);
    expect((await post(svc, { query: CHANNEL_DOC, variables })).status).toBe(200);
  });

  test('any other document is refused: 403 TRUSTED_DOCUMENT_REQUIRED, and an unknown APQ hash is not found', async () => {
    const refused = await post(svc, { query: ARBITRARY });
    expectRefused(refused, 403, 'TRUSTED_DOCUMENT_REQUIRED');
    expect(refused.body.errors![0]!.message).toMatch(/registered/);
    expectRefused(await get(svc, { query: ARBITRARY }), 403, 'TRUSTED_DOCUMENT_REQUIRED');
    // APQ cannot register it either.
    const hash = { persistedQuery: { version: 1, sha256Hash: sha256(ARBITRARY) } };
    expectRefused(await post(svc, { query: ARBITRARY, extensions: hash }), 403, 'TRUSTED_DOCUMENT_REQUIRED');
    expectRefused(await post(svc, { extensions: hash }), 404, 'PERSISTED_QUERY_NOT_FOUND');
    expectRefused(await post(svc, { documentId: `sha256:${sha256(ARBITRARY)}` }), 404, 'PERSISTED_QUERY_NOT_FOUND');
  });

  test("a client's documents are refused to other callers, also as text", async () => {
    expectRefused(await post(svc, { query: MOBILE_CHANNEL.body }), 403, 'TRUSTED_DOCUMENT_REQUIRED');
    const { accessToken } = await tokenFor(svc, { scopes: ['openid'] });
    const mine = await post(svc, { query: MOBILE_CHANNEL.body }, bearer(accessToken));
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    // The public list's answers are shared among readers as before.
    const pub = await post(svc, { documentId: `sha256:${CHANNEL_ID}`, variables: { id: '11' } }, bearer(accessToken));
    expect(pub.headers.get('cache-control')).toBe('max-age=60, private');
    expectRefused(await post(svc, { query: OTHER_DOC }, bearer(accessToken)), 403, 'TRUSTED_DOCUMENT_REQUIRED');
  });

  test('a token with the developer scope, and the playground outside production, run any document', async () => {
    const developer = await tokenFor(svc, { scopes: ['openid', 'developer'] });
    const developed = await post(svc, { query: ARBITRARY }, bearer(developer.accessToken));
    expect(channelOf(developed)).toEqual({ id: '11', description: 'News at six' });
    // Computed for the developer alone: a reader with the same entitlements is not given it from the cache.
    expect(developed.headers.get('cache-control')).toBe('no-store');
    const customer = await tokenFor(svc, { scopes: ['openid', 'cart'] });
    expectRefused(
      await post(svc, { query: ARBITRARY }, bearer(customer.accessToken)),
      403,
      'TRUSTED_DOCUMENT_REQUIRED',
    );
    expect((await post(svc, { query: ARBITRARY }, { 'x-gateway-playground': '1' })).status).toBe(200);
    // No client holds the scope unless registered with it.
    const { client } = await createClient(svc.store, { name: 'Plain app', kind: 'public', grantTypes: [] });
    expect(client.scopes).not.toContain('developer');
  });

  test('over WebSocket too: a subscription nobody registered is refused, a registered one runs', async () => {
    const client = wsClient(svc.url);
    try {
      const refused = collect(client, 'subscription Other { pollResultsChanged(pollId: "poll-1") { id } }');
      await refused.ended;
      expect(refused.results[0]!.errors![0]!.extensions?.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
      // The registered one runs: it reaches the resolver, which finds no such poll in this database.
      const registered = collect(client, POLL);
      await registered.ended;
      expect(registered.results[0]!.errors![0]!.extensions?.code).toBe('NOT_FOUND');
    } finally {
      await client.dispose();
    }
  });
});

describe('TRUSTED_DOCUMENTS=enforce without the playground', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start('enforce', { PLAYGROUND: 'false' });
  });
  afterAll(() => svc.close());

  test("the playground's header is no pass when the playground is not served", async () => {
    expectRefused(
      await post(svc, { query: ARBITRARY }, { 'x-gateway-playground': '1' }),
      403,
      'TRUSTED_DOCUMENT_REQUIRED',
    );
  });
});

describe('TRUSTED_DOCUMENTS=off', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start('off');
  });
  afterAll(() => svc.close());

  test('a documentId is 400 PERSISTED_QUERY_NOT_SUPPORTED; documents and APQ work as without the feature', async () => {
    expectRefused(await post(svc, { documentId: `sha256:${CHANNEL_ID}` }), 400, 'PERSISTED_QUERY_NOT_SUPPORTED');
    expectRefused(await get(svc, { documentId: `sha256:${CHANNEL_ID}` }), 400, 'PERSISTED_QUERY_NOT_SUPPORTED');
    expect((await post(svc, { query: ARBITRARY })).status).toBe(200);
    const hash = { persistedQuery: { version: 1, sha256Hash: sha256(ARBITRARY) } };
    expect((await post(svc, { query: ARBITRARY, extensions: hash })).status).toBe(200);
    expect(channelOf(await post(svc, { extensions: hash }))).toEqual({ id: '11', description: 'News at six' });
  });
});
