// RFC 9457 problem+json: the one place REST errors are shaped (docs/api.md).
import type Koa from 'koa';
import { AppError } from '../errors.js';
import { storeErrorToAppError } from '../store/errors.js';

const kebab = (code: string): string => code.toLowerCase().replace(/_/g, '-');

/** Errors thrown by Koa's own stack (body parser, ctx.throw) carry an HTTP status; keep it, drop their text. */
function fromHttpError(err: unknown): AppError | undefined {
  const status = (err as { status?: unknown })?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  switch (status) {
    case 413:
      return new AppError({
        status,
        code: 'PAYLOAD_TOO_LARGE',
        title: 'Payload Too Large',
        detail: 'The request body is too large',
      });
    case 415:
      return new AppError({
        status,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        title: 'Unsupported Media Type',
        detail: 'Send application/json',
      });
    case 405:
      return new AppError({ status, code: 'METHOD_NOT_ALLOWED', title: 'Method Not Allowed' });
    case 404:
      return new AppError({ status, code: 'NOT_FOUND', title: 'Not Found' });
    default:
      return new AppError({
        status: 400,
        code: 'BAD_REQUEST',
        title: 'Bad Request',
        detail: 'The request body is not valid JSON',
      });
  }
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  return storeErrorToAppError(err) ?? fromHttpError(err);
}

export function sendProblem(ctx: Koa.Context, err: AppError, requestId: string): void {
  ctx.status = err.status;
  for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
  ctx.type = 'application/problem+json';
  ctx.body = {
    type: `urn:gateway:problem:${kebab(err.code)}`,
    title: err.title,
    status: err.status,
    code: err.code,
    ...(err.detail ? { detail: err.detail } : {}),
    ...(err.errors?.length ? { errors: err.errors } : {}),
    ...(err.status >= 500 ? { requestId } : {}),
  };
}

export function sendInternalError(ctx: Koa.Context, requestId: string): void {
  ctx.status = 500;
  ctx.type = 'application/problem+json';
  ctx.body = {
    type: 'urn:gateway:problem:internal-server-error',
    title: 'Internal Server Error',
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    detail: 'Something went wrong on our side; quote the request id when reporting it',
    requestId,
  };
}
