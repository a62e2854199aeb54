// GraphQL error shaping: application errors keep their code, GraphQL's own input errors pass through,
// everything else is masked to INTERNAL_SERVER_ERROR (the request id is attached by the plugin).
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors.js';
import { storeErrorToAppError } from '../store/errors.js';

/** Codes Apollo and graphql-js produce for the client's own mistakes: safe to show as they are. */
const CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_HASH_MISMATCH',
  'BAD_REQUEST',
  'TRUSTED_DOCUMENT_REQUIRED',
]);

/**
 * Client mistakes that Apollo raises without a code of their own, recognised by the fixed texts Apollo and
 * graphql-js give them: an APQ hash that is not the query's, a `persistedQuery` extension that is not version 1
 * (any non-object included), and graphql-js's token limit (checked while
 * parsing, so an oversized document is never parsed whole, but a limit like depth and aliases to the client).
 */
function uncodedClientError(message: string): string | undefined {
  if (message === 'provided sha does not match query') return 'PERSISTED_QUERY_HASH_MISMATCH';
  if (message === 'Unsupported persisted query version') return 'PERSISTED_QUERY_NOT_SUPPORTED';
  if (/^Syntax Error: Document contains more th(?:an|at) \d+ tokens/.test(message)) return 'GRAPHQL_VALIDATION_FAILED';
  return undefined;
}

export const isClientErrorCode = (code: unknown): boolean =>
  typeof code === 'string' &&
  (CLIENT_CODES.has(code) ||
    ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'PAGE_NOT_ENABLED', 'RATE_LIMITED'].includes(code));

/** The client's own mistake, by its code (or Apollo's fixed text), never an unexpected exception. */
export function isClientGraphQLError(error: GraphQLError): boolean {
  const original = unwrapResolverError(error);
  if (original instanceof Error && !(original instanceof GraphQLError)) return false;
  const code = uncodedClientError(error.message) ?? error.extensions?.code;
  return typeof code === 'string' && CLIENT_CODES.has(code);
}

export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const appError = original instanceof AppError ? original : storeErrorToAppError(original);
  if (appError) {
    return {
      message: appError.status >= 500 ? appError.title : appError.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: appError.graphqlCode,
        ...(appError.errors?.length ? { errors: appError.errors } : {}),
        ...(appError.status === 429 ? { retryAfter: Number(appError.headers['Retry-After']) } : {}),
      },
    };
  }
  const code = uncodedClientError(formatted.message) ?? formatted.extensions?.code;
  if (
    typeof code === 'string' &&
    CLIENT_CODES.has(code) &&
    !(original instanceof Error && !(original instanceof GraphQLError))
  ) {
    const limit = formatted.extensions?.limit;
    return {
      message: formatted.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code, ...(limit ? { limit, max: formatted.extensions?.max } : {}) },
    };
  }
  return {
    message: 'Internal server error',
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}
