// Document identifiers (the GraphQL-over-HTTP persisted documents appendix): `sha256:<hex>`, the SHA-256 of the
// document's text, or a custom identifier without a colon (graphql-codegen's SHA-1 hashes, an Apollo manifest's
// own ids). The refusals a request naming a document can meet, each with its code.
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';

export type DocumentRef = { sha256: string } | { alias: string };

const SHA256_ID = /^sha256:([0-9a-f]{64})$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** The appendix's UnreservedCharacter+, bounded. */
const CUSTOM_ID = /^[A-Za-z0-9._~-]{1,200}$/;

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A request's `documentId` as a reference, or a 400 DOCUMENT_ID_INVALID saying what is wrong with it. */
export function parseDocumentId(value: unknown): DocumentRef {
  if (typeof value !== 'string') throw documentIdInvalid('documentId must be one string');
  const sha256 = SHA256_ID.exec(value);
  if (sha256) return { sha256: sha256[1]! };
  if (value.startsWith('sha256:')) throw documentIdInvalid('a sha256: documentId is 64 lower-case hex digits');
  if (CUSTOM_ID.test(value)) return { alias: value };
  throw documentIdInvalid(
    'documentId is sha256:<64 hex digits> or a custom identifier of letters, digits and -._~ (no other prefixes)',
  );
}

/** The SHA-256 an APQ request (`extensions.persistedQuery.sha256Hash`) names, when it is one. */
export function apqHash(extensions: unknown): string | undefined {
  if (typeof extensions === 'string') {
    try {
      return apqHash(JSON.parse(extensions));
    } catch {
      return undefined; // Apollo refuses the unreadable parameter itself
    }
  }
  if (!extensions || typeof extensions !== 'object') return undefined;
  const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } }).persistedQuery;
  const hash = persisted && typeof persisted === 'object' ? persisted.sha256Hash : undefined;
  return typeof hash === 'string' && SHA256_HEX.test(hash) ? hash : undefined;
}

const documentIdInvalid = (detail: string): AppError =>
  new AppError({ status: 400, code: 'DOCUMENT_ID_INVALID', title: 'Bad Request', detail });

export const documentNotFound = (): AppError =>
  new AppError({
    status: 404,
    code: 'PERSISTED_QUERY_NOT_FOUND',
    title: 'Not Found',
    detail: 'No document is registered under this id for this client',
  });

export const documentMismatch = (): AppError =>
  new AppError({
    status: 400,
    code: 'PERSISTED_QUERY_HASH_MISMATCH',
    title: 'Bad Request',
    detail: 'The document sent is not the one its id names',
  });

export const documentIdsUnsupported = (): AppError =>
  new AppError({
    status: 400,
    code: 'PERSISTED_QUERY_NOT_SUPPORTED',
    title: 'Bad Request',
    detail: 'This service does not run documents by id (TRUSTED_DOCUMENTS=off): send the query',
  });

export const trustedDocumentRequired = (): AppError =>
  new AppError({
    status: 403,
    code: 'TRUSTED_DOCUMENT_REQUIRED',
    title: 'Forbidden',
    detail: 'This service runs only the documents registered for your client: send a registered documentId',
  });
