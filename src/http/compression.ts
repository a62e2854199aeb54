// Every answer in the coding the client prefers (br, gzip or identity, src/cache/codings.ts). Our own middleware
// over node:zlib rather than koa-compress: the response cache and the static routes keep their answers' coded
// variants (src/cache/kept-answer.ts), each answer's ETag must name its coding, a client that refuses every
// coding gets a problem answer, and koa-compress does none of these (it compresses every answer per request).
import type Koa from 'koa';
import { ifNoneMatchMatches } from '../cache/cacheable.js';
import {
  codedEtag,
  codingFor,
  compressStream,
  compressSync,
  isCompressible,
  levelOf,
  acceptableCodings,
  type Compressed,
} from '../cache/codings.js';
import { keptAnswerOf } from '../cache/kept-answer.js';
import { AppError } from '../errors.js';
import { sendProblem } from './problem.js';

/** From this size a per-request compression is streamed: the first bytes leave early, and on the thread pool. */
const STREAM_FROM_BYTES = 64 * 1024;

export function compression(): Koa.Middleware<{ requestId: string }> {
  return async (ctx, next) => {
    await next();
    encode(ctx as unknown as Koa.Context, ctx.state.requestId);
  };
}

function bytesOf(body: unknown): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  // A stream (the body of a subscription or an incremental answer) flushes as it goes: never held back here.
  if (typeof body === 'object' && body !== null && typeof (body as { pipe?: unknown }).pipe !== 'function')
    return Buffer.from(JSON.stringify(body), 'utf8');
  return undefined;
}

function encode(ctx: Koa.Context, requestId: string): void {
  const { body, status } = ctx;
  if (body === undefined || body === null || status === 204 || status === 304 || ctx.response.get('Content-Encoding'))
    return;
  if (!isCompressible(String(ctx.response.get('Content-Type') ?? ''))) return;
  const bytes = bytesOf(body);
  if (!bytes) return;
  ctx.vary('Accept-Encoding');
  const header = ctx.get('Accept-Encoding') || undefined;
  const coding = codingFor(header, bytes.length);
  if (coding === undefined) {
    // Only an answer that succeeded is replaced: an error says more than 406 would.
    if (status >= 200 && status < 300) refuse(ctx, requestId);
    return;
  }
  // HEAD answers carry no body to compress: they keep the identity headers.
  if (coding === 'identity' || ctx.method === 'HEAD') return;

  const kept = keptAnswerOf(body)?.variant(coding);
  if (!kept && keptAnswerOf(body) && acceptableCodings(header).includes('identity')) return; // until it is ready
  const level = levelOf(coding, 'per-request', bytes.length);
  const identityEtag = ctx.response.get('ETag');
  const etag = kept ? kept.etag : identityEtag ? codedEtag(identityEtag, coding, level) : undefined;
  if (etag) ctx.set('ETag', etag);
  if (etag && ctx.method === 'GET' && status === 200 && ifNoneMatchMatches(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.set('Content-Encoding', coding);
  ctx.body = kept ? kept.body : perRequest(bytes, coding, level);
}

function perRequest(bytes: Buffer, coding: Compressed, level: number): Buffer | NodeJS.ReadWriteStream {
  return bytes.length >= STREAM_FROM_BYTES ? compressStream(bytes, coding, level) : compressSync(bytes, coding, level);
}

function refuse(ctx: Koa.Context, requestId: string): void {
  ctx.remove('ETag');
  ctx.set('Cache-Control', 'no-store');
  sendProblem(
    ctx,
    new AppError({
      status: 406,
      code: 'NOT_ACCEPTABLE',
      title: 'Not Acceptable',
      detail: 'Accept-Encoding refuses every coding of this answer (br, gzip, identity)',
    }),
    requestId,
  );
}
