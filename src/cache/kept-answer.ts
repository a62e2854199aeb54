// An answer's bytes that outlive one request (a response-cache entry, a static file, the OpenAPI document) and
// their coded variants: each is compressed once, at the kept level, on the thread pool, when a client first
// asks for it. Until it is ready the answer goes out as an uncached one would (identity when the client takes
// it), so no request waits for a slow, high-level compression and no hot answer is compressed per request.
import { codedEtag, compressAsync, levelOf, type Compressed } from './codings.js';

export interface Representation {
  body: Buffer;
  etag: string;
  coding: Compressed;
}

export class KeptAnswer {
  private readonly coded = new Map<Compressed, Representation | Promise<void>>();

  constructor(
    readonly body: Buffer,
    readonly etag: string,
  ) {}

  /** The coded variant if it is ready; otherwise undefined, and its compression starts (once). */
  variant(coding: Compressed): Representation | undefined {
    const known = this.coded.get(coding);
    if (known && !(known instanceof Promise)) return known;
    if (!known) {
      const level = levelOf(coding, 'kept', this.body.length);
      this.coded.set(
        coding,
        compressAsync(this.body, coding, level).then(
          (body) => void this.coded.set(coding, { body, etag: codedEtag(this.etag, coding, level), coding }),
          // A failed compression (memory) is tried again by a later request; meanwhile identity goes out.
          () => void this.coded.delete(coding),
        ),
      );
    }
    return undefined;
  }
}

// The bytes a route sets as its body, mapped to what is kept of them: the compression middleware finds a kept
// answer's variants from the body alone, whoever set it (a static route, the response cache replaying an entry).
const kept = new WeakMap<Buffer, KeptAnswer>();

/** Marks `body` as kept under `etag` (its identity ETag); the same object for the same bytes. */
export function keepAnswer(body: Buffer, etag: string): KeptAnswer {
  let answer = kept.get(body);
  if (!answer || answer.etag !== etag) kept.set(body, (answer = new KeptAnswer(body, etag)));
  return answer;
}

export function keptAnswerOf(body: unknown): KeptAnswer | undefined {
  return Buffer.isBuffer(body) ? kept.get(body) : undefined;
}
