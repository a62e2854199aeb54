// Expected failures as typed errors with a stable code; turned into HTTP and GraphQL shapes in one place each.

export interface FieldProblem {
  field: string;
  message: string;
}

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'PAGE_NOT_FOUND'
  | 'PAGE_NOT_ENABLED'
  | 'CHANNEL_NOT_FOUND'
  | 'CART_NOT_FOUND'
  | 'COUPON_NOT_IN_CART'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'POLL_CLOSED'
  | 'QUIZ_NOT_OPEN'
  | 'QUIZ_CHANGED'
  | 'ALREADY_VOTED'
  | 'LIVE_UNAVAILABLE'
  | 'SEARCH_UNAVAILABLE'
  | 'PREVIEW_TOKEN_INVALID'
  | 'PREVIEW_LINK_EXPIRED'
  | 'PREVIEW_LINK_REVOKED'
  | 'STORE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

/** Codes only /graphql answers (a document named by id, docs/api.md "Trusted documents"): no REST path gives them. */
export type GraphqlRequestCode =
  | 'DOCUMENT_ID_INVALID'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_HASH_MISMATCH'
  | 'PERSISTED_QUERY_NOT_SUPPORTED'
  | 'TRUSTED_DOCUMENT_REQUIRED';

/** GraphQL `extensions.code` for each application code (docs/api.md). */
const graphqlCodes: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'BAD_USER_INPUT',
  COUPON_NOT_IN_CART: 'BAD_USER_INPUT',
  PAGE_NOT_FOUND: 'NOT_FOUND',
  CHANNEL_NOT_FOUND: 'NOT_FOUND',
  CART_NOT_FOUND: 'NOT_FOUND',
  RATE_LIMITED: 'RATE_LIMITED',
  STORE_UNAVAILABLE: 'INTERNAL_SERVER_ERROR',
};

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode | GraphqlRequestCode;
  /** Problem title: a fixed text per code ("Page not found", "Bad Request"), never the detail. */
  readonly title: string;
  readonly errors?: FieldProblem[];
  readonly headers: Record<string, string>;

  constructor(opts: {
    status: number;
    code: ErrorCode | GraphqlRequestCode;
    title: string;
    detail?: string;
    errors?: FieldProblem[];
    headers?: Record<string, string>;
  }) {
    super(opts.detail ?? opts.title);
    this.name = 'AppError';
    this.status = opts.status;
    this.code = opts.code;
    this.title = opts.title;
    this.errors = opts.errors;
    this.headers = opts.headers ?? {};
  }

  get detail(): string | undefined {
    return this.message === this.title ? undefined : this.message;
  }

  get graphqlCode(): string {
    return graphqlCodes[this.code as ErrorCode] ?? this.code;
  }
}

export const badRequest = (detail?: string, errors?: FieldProblem[]): AppError =>
  new AppError({ status: 400, code: 'BAD_REQUEST', title: 'Bad Request', detail, errors });

export const notFound = (code: ErrorCode, title: string, detail?: string): AppError =>
  new AppError({ status: 404, code, title, detail });

/**
 * 401 with an RFC 6750 §3 challenge. `error: null` answers a request that carries no bearer token at
 * all (§3.1: no error code then).
 */
export const unauthenticated = (
  detail = 'A valid bearer token is required',
  error: string | null = 'invalid_token',
): AppError =>
  new AppError({
    status: 401,
    code: 'UNAUTHENTICATED',
    title: 'Unauthorized',
    detail,
    headers: {
      'WWW-Authenticate': error
        ? `Bearer realm="api", error="${error}", error_description="${detail.replace(/"/g, "'")}"`
        : 'Bearer realm="api"',
    },
  });

export const forbidden = (detail: string, scope?: string): AppError =>
  new AppError({
    status: 403,
    code: 'FORBIDDEN',
    title: 'Forbidden',
    detail,
    headers: scope ? { 'WWW-Authenticate': `Bearer realm="api", error="insufficient_scope", scope="${scope}"` } : {},
  });

export const rateLimited = (retryAfterSeconds: number): AppError =>
  new AppError({
    status: 429,
    code: 'RATE_LIMITED',
    title: 'Too Many Requests',
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

export const storeUnavailable = (): AppError =>
  new AppError({
    status: 503,
    code: 'STORE_UNAVAILABLE',
    title: 'Service Unavailable',
    detail: 'The store is not answering; try again shortly',
    headers: { 'Retry-After': '2' },
  });

/** A state conflict the client cannot fix by changing its input (a closed poll, a quiz not open, a second vote). */
export const conflict = (code: ErrorCode, detail: string): AppError =>
  new AppError({ status: 409, code, title: 'Conflict', detail });
