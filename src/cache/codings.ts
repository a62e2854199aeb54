// Content codings (RFC 9110 §8.4, §12.5.3): which coding an answer goes out in, chosen from Accept-Encoding by
// negotiator (q-values, `identity`, `*`), the ETag of each coded representation, and zlib's brotli and gzip at
// two levels: a low one for answers compressed per request, a high one for answers compressed once and kept.
import Negotiator from 'negotiator';
import { constants, createBrotliCompress, createGzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { brotliCompress, brotliCompressSync, gzip, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';
export type Compressed = Exclude<Coding, 'identity'>;

/** The codings the service has, best first: brotli is smaller than gzip at the same speed on our JSON. */
const HAVE: Coding[] = ['br', 'gzip', 'identity'];
/** Smaller bodies stay identity: a coding's own framing and the CPU cost more than the bytes saved. */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli 4 and gzip 6 per request: about 57 MB/s on a 4.3 MB issues page (6.1% of its size). Kept answers
 * are compressed once: brotli 11 (20-25% smaller again on answers of a few KB, but under 1 MB/s), and brotli
 * 9 above 512 KiB, where 11 would take seconds of CPU for a few per cent (4.8% against 5.2% of that page).
 */
export type Effort = 'per-request' | 'kept';
const KEPT_BROTLI_11_UP_TO = 512 * 1024;

export function levelOf(coding: Compressed, effort: Effort, bytes: number): number {
  if (coding === 'gzip') return effort === 'kept' ? 9 : 6;
  if (effort === 'per-request') return 4;
  return bytes <= KEPT_BROTLI_11_UP_TO ? 11 : 9;
}

function brotliOptions(level: number, bytes: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: level,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
  };
}
const gzipOptions = (level: number): ZlibOptions => ({ level });

/** The coded bytes, on the event loop (small bodies, where handing work to the thread pool costs more). */
export function compressSync(body: Buffer, coding: Compressed, level: number): Buffer {
  return coding === 'br'
    ? brotliCompressSync(body, brotliOptions(level, body.length))
    : gzipSync(body, gzipOptions(level));
}

/** The coded bytes, computed on libuv's thread pool. */
export function compressAsync(body: Buffer, coding: Compressed, level: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer): void => (err ? reject(err) : resolve(out));
    if (coding === 'br') brotliCompress(body, brotliOptions(level, body.length), done);
    else gzip(body, gzipOptions(level), done);
  });
}

/** A stream of the coded bytes, sent as they come (large bodies: no second copy, and the first bytes early). */
export function compressStream(body: Buffer, coding: Compressed, level: number): NodeJS.ReadWriteStream {
  const stream =
    coding === 'br' ? createBrotliCompress(brotliOptions(level, body.length)) : createGzip(gzipOptions(level));
  stream.end(body);
  return stream;
}

/** The ETag of a coded representation: a strong validator names one sequence of bytes, so coding and level too. */
export function codedEtag(etag: string, coding: Compressed, level: number): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${coding}${level}"` : etag;
}

// Clients send a handful of distinct headers; each is parsed once. The map is bounded against a client that
// varies it on every request.
const chosen = new Map<string, Coding[]>();
const CHOSEN_MAX = 256;

/** The codings `acceptEncoding` accepts among ours, the client's preferred first (ours among equals); [] for none. */
export function acceptableCodings(acceptEncoding: string | undefined): Coding[] {
  const header = acceptEncoding ?? '';
  let codings = chosen.get(header);
  if (!codings) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
    // negotiator 1 takes our own order for codings the client rates equally; its types predate that option.
    const encodings = negotiator.encodings as (
      this: Negotiator,
      have: Coding[],
      options: { preferred: Coding[] },
    ) => Coding[];
    codings = encodings.call(negotiator, HAVE, { preferred: HAVE });
    if (chosen.size >= CHOSEN_MAX) chosen.clear();
    chosen.set(header, codings);
  }
  return codings;
}

/**
 * The coding to send a body of `bytes` in: the client's first choice, identity for small bodies when the client
 * takes it, and undefined when it takes none of ours (a 406).
 */
export function codingFor(acceptEncoding: string | undefined, bytes: number): Coding | undefined {
  const codings = acceptableCodings(acceptEncoding);
  if (bytes < MIN_COMPRESSED_BYTES && codings.includes('identity')) return 'identity';
  return codings[0];
}

/** Types worth compressing: text, JSON, JavaScript, XML, SVG (images and archives are compressed already). */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|[\w.+-]+\+(json|xml))|image\/svg\+xml)/i.test(contentType);
}
