// Manifests as the tools write them, read into the documents to register: graphql-codegen's client preset
// (`persistedDocuments`: persisted-documents.json, `{ "<hash>": "<document>" }`) and Apollo's persisted query
// manifest (@apollo/generate-persisted-query-manifest: `{ format, version: 1, operations: [{ id, name, type, body }] }`).
import { createHash } from 'node:crypto';
import type { NewTrustedDocument } from '../../store/documents/trusted-documents.store.js';
import { sha256Hex } from './document-id.js';

/** Bounds on what one manifest may hold (docs/api.md, "Trusted documents"). */
export const MANIFEST_LIMITS = { bytes: 4 * 1024 * 1024, documents: 2_000, documentBytes: 64 * 1024 } as const;

export type ManifestErrorCode =
  'MANIFEST_TOO_LARGE' | 'MANIFEST_INVALID' | 'MANIFEST_ID_MISMATCH' | 'DOCUMENTS_INVALID';

/** A manifest refused as a whole: a stable code and every problem found, one line each. */
export class ManifestError extends Error {
  constructor(
    readonly code: ManifestErrorCode,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'ManifestError';
  }
}

interface ManifestEntry {
  id: string;
  body: string;
}

const SHA1_HEX = /^[0-9a-f]{40}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const CUSTOM_ID = /^[A-Za-z0-9._~-]{1,200}$/;

function entriesOf(manifest: unknown): ManifestEntry[] {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest))
    throw new ManifestError('MANIFEST_INVALID', 'A manifest is a JSON object');
  const record = manifest as Record<string, unknown>;
  if ('format' in record) {
    if (
      record.format !== 'apollo-persisted-query-manifest' ||
      record.version !== 1 ||
      !Array.isArray(record.operations)
    )
      throw new ManifestError(
        'MANIFEST_INVALID',
        'An Apollo manifest has format "apollo-persisted-query-manifest", version 1 and an operations array',
      );
    return record.operations.map((op: unknown, i) => {
      const { id, body } = (op ?? {}) as Record<string, unknown>;
      if (typeof id !== 'string' || typeof body !== 'string')
        throw new ManifestError('MANIFEST_INVALID', `operations[${i}] needs a string id and body`);
      return { id, body };
    });
  }
  return Object.entries(record).map(([id, body]) => {
    if (typeof body !== 'string')
      throw new ManifestError(
        'MANIFEST_INVALID',
        `"${id.slice(0, 80)}": a persisted-documents manifest maps ids to texts`,
      );
    return { id, body };
  });
}

/** The manifest's id checked against the text it names: SHA-256 and SHA-1 hashes must be the text's. */
function registered(entry: ManifestEntry): NewTrustedDocument | string {
  const sha256 = sha256Hex(entry.body);
  const id = entry.id.startsWith('sha256:') ? entry.id.slice('sha256:'.length) : entry.id;
  if (SHA256_HEX.test(id))
    return id === sha256
      ? { sha256, body: entry.body, operationName: null }
      : `${entry.id}: not the SHA-256 of its document`;
  if (!CUSTOM_ID.test(entry.id)) return `${entry.id.slice(0, 80)}: an id is sha256:<hex>, or letters, digits and -._~`;
  if (SHA1_HEX.test(id) && createHash('sha1').update(entry.body, 'utf8').digest('hex') !== id)
    return `${entry.id}: not the SHA-1 of its document`;
  return { sha256, alias: entry.id, body: entry.body, operationName: null };
}

/** Reads a manifest's text: the documents to register, or a ManifestError listing what is wrong. */
export function readManifest(text: string): NewTrustedDocument[] {
  if (Buffer.byteLength(text, 'utf8') > MANIFEST_LIMITS.bytes)
    throw new ManifestError('MANIFEST_TOO_LARGE', `A manifest is at most ${MANIFEST_LIMITS.bytes} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ManifestError('MANIFEST_INVALID', `Not JSON: ${(err as Error).message}`);
  }
  const entries = entriesOf(parsed);
  if (entries.length > MANIFEST_LIMITS.documents)
    throw new ManifestError('MANIFEST_TOO_LARGE', `A manifest holds at most ${MANIFEST_LIMITS.documents} documents`);
  if (entries.length === 0) throw new ManifestError('MANIFEST_INVALID', 'The manifest holds no document');
  const tooLong = entries.filter((e) => Buffer.byteLength(e.body, 'utf8') > MANIFEST_LIMITS.documentBytes);
  if (tooLong.length)
    throw new ManifestError(
      'MANIFEST_TOO_LARGE',
      `A document is at most ${MANIFEST_LIMITS.documentBytes} bytes`,
      tooLong.map((e) => `${e.id.slice(0, 80)}: ${Buffer.byteLength(e.body, 'utf8')} bytes`),
    );
  const results = entries.map(registered);
  const problems = results.filter((r): r is string => typeof r === 'string');
  if (problems.length)
    throw new ManifestError('MANIFEST_ID_MISMATCH', 'Ids that are malformed or not their documents', problems);
  return results as NewTrustedDocument[];
}
