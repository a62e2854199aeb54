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
  'BAD_REQUEST',
]);

export const isClientErrorCode = (code: unknown): boolean =>
  typeof code === 'string' && (CLIENT_CODES.has(code) || ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'PAGE_NOT_ENABLED', 'RATE_LIMITED'].includes(code));

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
  // graphql-armor's token limit re-parses the document and reports a syntax error as a validation failure.
  const code = formatted.message.startsWith('Syntax Error') ? 'GRAPHQL_PARSE_FAILED' : formatted.extensions?.code;
  if (typeof code === 'string' && CLIENT_CODES.has(code) && !(original instanceof Error && !(original instanceof GraphQLError))) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  return {
    message: 'Internal server error',
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}
