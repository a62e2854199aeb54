// RFC 9457 problem+json bodies (docs/api.md) as zod: the generic Problem component, and per-response
// schemas narrowed to the codes (and their exact titles) that response can carry, so a client sees
// which failures to expect and the live-response tests pin the codes the shims actually send.
import type { ErrorCode } from '../../errors.js';
import { z } from '../zod.js';

/** Every ErrorCode with the title the service sends for it (src/errors.ts, src/http/problem.ts, the operations). */
const PROBLEM_TITLES = {
  BAD_REQUEST: 'Bad Request',
  BAD_USER_INPUT: 'Bad Request',
  COUPON_NOT_IN_CART: 'Bad Request',
  UNAUTHENTICATED: 'Unauthorized',
  FORBIDDEN: 'Forbidden',
  PAGE_NOT_ENABLED: 'Page not enabled',
  NOT_FOUND: 'Not Found',
  PAGE_NOT_FOUND: 'Page not found',
  CHANNEL_NOT_FOUND: 'Channel not found',
  CART_NOT_FOUND: 'Cart not found',
  METHOD_NOT_ALLOWED: 'Method Not Allowed',
  NOT_ACCEPTABLE: 'Not Acceptable',
  PAYLOAD_TOO_LARGE: 'Payload Too Large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported Media Type',
  RATE_LIMITED: 'Too Many Requests',
  POLL_CLOSED: 'Conflict',
  QUIZ_NOT_OPEN: 'Conflict',
  QUIZ_CHANGED: 'Conflict',
  ALREADY_VOTED: 'Conflict',
  LIVE_UNAVAILABLE: 'Service Unavailable',
  SEARCH_UNAVAILABLE: 'Service Unavailable',
  PREVIEW_TOKEN_INVALID: 'Unauthorized',
  PREVIEW_LINK_EXPIRED: 'Unauthorized',
  PREVIEW_LINK_REVOKED: 'Forbidden',
  STORE_UNAVAILABLE: 'Service Unavailable',
  INTERNAL_SERVER_ERROR: 'Internal Server Error',
} as const satisfies Record<ErrorCode, string>;

type Code = keyof typeof PROBLEM_TITLES;
const ALL_CODES = Object.keys(PROBLEM_TITLES) as [Code, ...Code[]];

const fieldProblem = z
  .object({
    field: z.string().describe('Dotted path of the offending input field (`limit`, `email`, `body`)'),
    message: z.string().describe('What is wrong with it, for humans'),
  })
  .openapi('FieldProblem', { description: 'One invalid input field of a 400' });

const type = z
  .string()
  .regex(/^urn:gateway:problem:[a-z-]+$/)
  .describe('Problem type URI: `urn:gateway:problem:` followed by the code in kebab case');

function fields(status: z.ZodType, code: z.ZodType, title: z.ZodType, serverError: boolean) {
  return {
    type,
    title,
    status,
    code,
    detail: z.string().optional().describe('Explanation of this occurrence, for humans'),
    errors: z.array(fieldProblem).optional().describe('Field-level problems (400 only)'),
    ...(serverError
      ? { requestId: z.string().describe('The request id (also in X-Request-Id): quote it when reporting the failure') }
      : {}),
  };
}

export const problem = z
  .object({
    ...fields(
      z.number().int().min(400).max(599).describe('The HTTP status code'),
      z.enum(ALL_CODES).describe('Stable machine-readable code'),
      z.string().describe('Short summary: a fixed text per code'),
      false,
    ),
    requestId: z.string().optional().describe('Present on 5xx answers: quote it when reporting the failure'),
  })
  .openapi('Problem', {
    description: 'RFC 9457 problem details, as every REST shim answers errors (application/problem+json)',
  });

/** The body of one error response: status fixed, `code` one of `codes`, each with its exact title. */
export function problemFor(status: number, codes: readonly Code[]): z.ZodType {
  const variant = (code: Code) =>
    z.object(fields(z.literal(status), z.literal(code), z.literal(PROBLEM_TITLES[code]), status >= 500));
  if (codes.length === 1) return variant(codes[0]!);
  const variants = codes.map(variant);
  return z.discriminatedUnion('code', variants as [ReturnType<typeof variant>, ...Array<ReturnType<typeof variant>>]);
}

/** A realistic example body for one code (shown by the viewer; cheap to keep right). */
export function problemExample(
  status: number,
  code: Code,
  detail?: string,
  errors?: Array<{ field: string; message: string }>,
) {
  return {
    type: `urn:gateway:problem:${code.toLowerCase().replace(/_/g, '-')}`,
    title: PROBLEM_TITLES[code],
    status,
    code,
    ...(detail ? { detail } : {}),
    ...(errors ? { errors } : {}),
    ...(status >= 500 ? { requestId: '5f0c6c1e-2b1a-4c55-9b8e-1f2d3c4b5a69' } : {}),
  };
}
