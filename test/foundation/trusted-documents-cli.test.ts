// `npm run documents -- add|list|remove|check`: the built command against the running service's database. What
// it adds runs at once (TRUSTED_DOCUMENTS=enforce), what it refuses is stored nowhere, and `check` fails when a
// registered document no longer validates.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/version.js';
import { ensureBuilt, runBuiltScript } from '../helpers/built.js';
import { testMongoUri } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureTestClient, TEST_CLIENT_ID } from '../helpers/tokens.js';

/** Each run is a fresh Node process that builds the schema and opens the store: allow for a loaded machine. */
const SLOW = 120_000;
const fixture = (name: string): string => join(projectRoot, 'test/fixtures/documents', name);
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let svc: TestService;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService({ env: { TRUSTED_DOCUMENTS: 'enforce' } });
  await ensureTestClient(svc);
  dir = await mkdtemp(join(tmpdir(), 'documents-'));
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  runBuiltScript('tools/documents.js', args, { MONGODB_URI: testMongoUri(), MONGODB_DB: svc.db.databaseName });

async function manifestFile(name: string, content: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const byId = (id: string, variables?: Record<string, unknown>) =>
  fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ documentId: id, variables }),
  });

test(
  'add a public manifest and a client manifest: they run at once, and list shows them',
  async () => {
    const web = await cli('add', fixture('web.persisted-documents.json'), '--public', '--name', 'web@1');
    expect(web.code).toBe(0);
    expect(JSON.parse(web.stdout)).toEqual({ owner: 'public', name: 'web@1', added: 2, kept: 0, dropped: 0 });
    const [id] = Object.keys(JSON.parse(readFileSync(fixture('web.persisted-documents.json'), 'utf8')) as object);
    expect((await byId(`sha256:${id}`, { id: '1' })).status).toBe(200);

    const mobile = await cli('add', fixture('mobile.persisted-query-manifest.json'), '--client', TEST_CLIENT_ID);
    expect(mobile.code).toBe(0);
    expect(JSON.parse(mobile.stdout)).toMatchObject({ owner: `client:${TEST_CLIENT_ID}`, added: 2 });

    const list = await cli('list');
    expect(JSON.parse(list.stdout)).toEqual([
      { owner: `client:${TEST_CLIENT_ID}`, name: 'mobile.persisted-query-manifest.json', documents: 2 },
      { owner: 'public', name: 'web@1', documents: 2 },
    ]);
    expect((await cli('check')).code).toBe(0);
  },
  SLOW,
);

test(
  'a manifest is refused whole, with its code and every problem, and nothing of it is stored',
  async () => {
    const good = 'query Fine { channel(id: "1") { id } }';
    const bad = 'query Broken { channel(id: "1") { id nope } }';
    const invalid = await manifestFile('invalid.json', { [sha256(good)]: good, [sha256(bad)]: bad });
    const res = await cli('add', invalid, '--public');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('DOCUMENTS_INVALID');
    expect(res.stderr).toMatch(/Broken \(sha256:[0-9a-f]{12}…\): Cannot query field "nope" on type "Channel"/);
    expect(await svc.store.collection('trustedDocuments').countDocuments({ manifests: 'invalid.json' })).toBe(0);

    const huge = await manifestFile('huge.json', { id: `{ a } #${'x'.repeat(5 * 1024 * 1024)}` });
    expect((await cli('add', huge, '--public')).stderr).toContain('MANIFEST_TOO_LARGE');
    const mismatch = await manifestFile('mismatch.json', { [`sha256:${sha256('other')}`]: good });
    expect((await cli('add', mismatch, '--public')).stderr).toContain('MANIFEST_ID_MISMATCH');
    const unknownClient = await cli('add', fixture('web.persisted-documents.json'), '--client', 'nobody');
    expect({ code: unknownClient.code, stderr: unknownClient.stderr.trim() }).toEqual({
      code: 1,
      stderr: 'no OAuth client "nobody"',
    });
    expect((await cli('add', fixture('web.persisted-documents.json'))).code).toBe(2);
  },
  SLOW,
);

test(
  'remove takes a manifest away: its documents no longer run',
  async () => {
    const body = 'query Temporary { channel(id: "1") { name } }';
    const file = await manifestFile('temporary.json', { [sha256(body)]: body });
    expect((await cli('add', file, '--public', '--name', 'temporary')).code).toBe(0);
    const removed = await cli('remove', '--public', '--name', 'temporary');
    expect(JSON.parse(removed.stdout)).toEqual({ owner: 'public', name: 'temporary', removed: 1 });
    const res = await byId(`sha256:${sha256(body)}`);
    expect(res.status).toBe(404);
    expect((await cli('remove', '--public', '--name', 'temporary')).code).toBe(1);
  },
  SLOW,
);

test(
  'check fails when a registered document no longer validates (as after a schema change), naming it',
  async () => {
    const body = 'query Stale { channel(id: "1") { id fieldRemovedSince } }';
    await svc.store.collection('trustedDocuments').insertOne({
      _id: `public/${sha256(body)}`,
      owner: 'public',
      sha256: sha256(body),
      aliases: [],
      body,
      operationName: 'Stale',
      manifests: ['old@1'],
      addedAt: new Date(),
    });
    const res = await cli('check');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('DOCUMENTS_INVALID');
    expect(res.stderr).toContain('Stale');
    // The checked-in manifests, with no store at all: what CI runs.
    const files = await runBuiltScript('tools/documents.js', [
      'check',
      fixture('web.persisted-documents.json'),
      fixture('mobile.persisted-query-manifest.json'),
    ]);
    expect(files.code).toBe(0);
  },
  SLOW,
);
