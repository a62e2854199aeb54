// Response builders shared by the path modules: JSON success bodies and problem+json failures, each
// with the headers the service sends (X-Request-Id on every answer).
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { ErrorCode } from '../errors.js';
import { problemExample, problemFor } from './components/problem.js';
import { headers, type HeaderName } from './components/headers.js';
import type { z } from './zod.js';

export const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

type Named = Partial<Record<string, HeaderName>>;

export function jsonResponse(
  description: string,
  schema: z.ZodType,
  opts: { headers?: Named; examples?: Record<string, { summary: string; value: unknown }> } = {},
): ResponseConfig {
  return {
    description,
    headers: headers(opts.headers),
    content: { [JSON_TYPE]: { schema, ...(opts.examples ? { examples: opts.examples } : {}) } },
  };
}

export interface ProblemSpec {
  description: string;
  codes: readonly ErrorCode[];
  headers?: Named;
  /** Example `detail` per code (the viewer shows one example per code). */
  details?: Partial<Record<ErrorCode, string>>;
}

export function problemResponse(status: number, spec: ProblemSpec): ResponseConfig {
  const examples = Object.fromEntries(
    spec.codes.map((code) => [code, { summary: code, value: problemExample(status, code, spec.details?.[code]) }]),
  );
  return {
    description: spec.description,
    headers: headers(spec.headers),
    content: { [PROBLEM_TYPE]: { schema: problemFor(status, spec.codes), examples } },
  };
}

/** 500 and 503, which every REST operation can answer; both carry a request id, never internals. */
export function serverProblems(extra: Named = {}): Record<number, ResponseConfig> {
  return {
    500: problemResponse(500, {
      description: 'Unexpected failure: no stack trace or driver message, only the request id',
      codes: ['INTERNAL_SERVER_ERROR'],
      headers: extra,
    }),
    503: problemResponse(503, {
      description:
        'The store is not answering (or a cart kept changing during the update); try again after `Retry-After`',
      codes: ['STORE_UNAVAILABLE'],
      headers: { ...extra, 'Retry-After': 'RetryAfter' },
    }),
  };
}

/** 400 for input that fails the shim's validation, with field-level `errors`. */
export const badRequest = (
  description = 'Malformed or invalid input; `errors` names each bad field',
  codes: readonly ErrorCode[] = ['BAD_REQUEST'],
  extra: Named = {},
): ResponseConfig =>
  problemResponse(400, {
    description,
    codes,
    headers: extra,
    details: { BAD_REQUEST: 'The request query is invalid' },
  });

/** 401 for an invalid token (or a missing one where required). */
export const unauthorized = (description: string, extra: Named = {}): ResponseConfig =>
  problemResponse(401, {
    description,
    codes: ['UNAUTHENTICATED'],
    headers: { ...extra, 'WWW-Authenticate': 'WwwAuthenticate' },
    details: { UNAUTHENTICATED: 'The access token is not valid' },
  });

/** 413 and 415 of the JSON-body routes. */
export function bodyProblems(extra: Named = {}): Record<number, ResponseConfig> {
  return {
    413: problemResponse(413, {
      description: 'The body is larger than 1 MiB',
      codes: ['PAYLOAD_TOO_LARGE'],
      headers: extra,
    }),
    415: problemResponse(415, {
      description: 'A body that is not `application/json`',
      codes: ['UNSUPPORTED_MEDIA_TYPE'],
      headers: extra,
    }),
  };
}
