// The checked-in example manifests (the ones the trusted-documents tests register, in graphql-codegen's and
// Apollo's formats) against the current schema: a schema change that breaks a document a frontend registered
// fails here, as `npm run documents -- check <files>` fails in CI.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewaySchema } from '../../src/graphql/build-schema.js';
import { checkDocuments } from '../../src/graphql/documents/check.js';
import { ManifestError, MANIFEST_LIMITS, readManifest } from '../../src/graphql/documents/manifest.js';
import { projectRoot } from '../../src/version.js';

const dir = join(projectRoot, 'test/fixtures/documents');
const manifests = readdirSync(dir).filter((f) => f.endsWith('.json'));

test.each(manifests)('%s: every document validates against the schema', async (file) => {
  const docs = readManifest(readFileSync(join(dir, file), 'utf8'));
  expect(docs.length).toBeGreaterThan(0);
  expect(checkDocuments(await buildGatewaySchema(), docs)).toEqual([]);
});

test('a document the schema no longer has is named with each of its errors', async () => {
  const body = 'query Gone { channel(id: "1") { id removedField } nothing }';
  const problems = checkDocuments(await buildGatewaySchema(), readManifest(JSON.stringify({ x1: body })));
  expect(problems).toEqual([
    expect.stringMatching(/^Gone \(sha256:[0-9a-f]{12}…\): Cannot query field "removedField" on type "Channel"\./),
    expect.stringMatching(/^Gone \(sha256:[0-9a-f]{12}…\): Cannot query field "nothing" on type "Query"\./),
  ]);
});

test('manifests out of bounds or not as the tools write them are refused with a code', () => {
  const codeOf = (text: string): string | undefined => {
    try {
      readManifest(text);
      return undefined;
    } catch (err) {
      return (err as ManifestError).code;
    }
  };
  expect(codeOf('x'.repeat(MANIFEST_LIMITS.bytes + 1))).toBe('MANIFEST_TOO_LARGE');
  const many = Object.fromEntries(Array.from({ length: MANIFEST_LIMITS.documents + 1 }, (_, i) => [`id${i}`, '{ a }']));
  expect(codeOf(JSON.stringify(many))).toBe('MANIFEST_TOO_LARGE');
  expect(codeOf(JSON.stringify({ big: `{ a } #${'x'.repeat(MANIFEST_LIMITS.documentBytes)}` }))).toBe(
    'MANIFEST_TOO_LARGE',
  );
  expect(codeOf('{not json')).toBe('MANIFEST_INVALID');
  expect(codeOf('[]')).toBe('MANIFEST_INVALID');
  expect(codeOf('{}')).toBe('MANIFEST_INVALID');
  expect(codeOf(JSON.stringify({ id: 5 }))).toBe('MANIFEST_INVALID');
  expect(codeOf(JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] }))).toBe(
    'MANIFEST_INVALID',
  );
  expect(codeOf(JSON.stringify({ [`sha256:${'0'.repeat(64)}`]: '{ a }' }))).toBe('MANIFEST_ID_MISMATCH');
  expect(codeOf(JSON.stringify({ ['0'.repeat(40)]: '{ a }' }))).toBe('MANIFEST_ID_MISMATCH');
  expect(codeOf(JSON.stringify({ 'md5:abc': '{ a }' }))).toBe('MANIFEST_ID_MISMATCH');
});
