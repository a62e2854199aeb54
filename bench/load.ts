// One autocannon run with every response checked: each request has its own check (status and body),
// failures are counted and the first few kept for the report. Throughput counts checked answers only.
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';

/**
 * Why an answer is wrong, or null when it is right. `context`: the connection's own object, which `dynamicBody`
 * was given for the request this answers (one request in flight per connection).
 */
export type Check = (status: number, body: string, context: Record<string, unknown>) => string | null;

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Builds the request just before it is sent (e.g. a fresh refresh token); return the body. `context` as for `check`. */
  dynamicBody?: (context: Record<string, unknown>) => string;
  check: Check;
  /** Sees every answer (after the check), e.g. to take the rotated refresh token. */
  onAnswer?: (status: number, body: string) => void;
}

export interface LoadOptions {
  url: string;
  requests: LoadRequest[];
  connections: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  /** Seconds before a request counts as timed out (default 30). */
  timeoutSeconds?: number;
}

export interface LoadResult {
  /** Checked, correct answers per second. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Answers received (right or wrong). */
  answers: number;
  ok: number;
  /** Wrong status or body. */
  failed: number;
  /** Connection errors and timeouts reported by autocannon. */
  errors: number;
  timeouts: number;
  durationSeconds: number;
  bytesPerAnswer: number;
  samples: string[];
  /** The whole body of the first wrong answer, to see what differed. */
  firstWrongBody?: string;
  connections: number;
}

export const expectExact =
  (expected: string, status = 200): Check =>
  (s, body) => {
    if (s !== status) return `status ${s}: ${body.slice(0, 300)}`;
    if (body !== expected)
      return `body differs from the verified answer (${body.length} vs ${expected.length} chars): ${body.slice(0, 300)}`;
    return null;
  };

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let ok = 0;
  let failed = 0;
  const samples: string[] = [];
  let firstWrongBody: string | undefined;
  const requests: autocannon.Request[] = opts.requests.map((r) => ({
    method: r.method,
    path: r.path,
    headers: { ...(r.body || r.dynamicBody ? { 'content-type': 'application/json' } : {}), ...r.headers },
    body: r.body,
    ...(r.dynamicBody
      ? {
          setupRequest: (req: autocannon.Request, context: object) => {
            req.body = r.dynamicBody!(context as Record<string, unknown>);
            return req;
          },
        }
      : {}),
    onResponse: (status: number, body: string, context: object) => {
      const problem = r.check(status, body, context as Record<string, unknown>);
      if (problem === null) ok++;
      else {
        failed++;
        if (samples.length < 5) samples.push(`${r.method} ${r.path}: ${problem}`);
        firstWrongBody ??= body;
      }
      r.onAnswer?.(status, body);
    },
  }));
  const instance = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationSeconds ?? 10,
    amount: opts.amount,
    timeout: opts.timeoutSeconds ?? 30,
    requests,
  }) as unknown as Promise<autocannon.Result> & EventEmitter;
  // The same object as an emitter (its on() returns the instance, which is the promise awaited below).
  const events: EventEmitter = instance;
  // autocannon's own histogram keeps whole milliseconds: at a p50 of 2 ms that alone moves p99/p50 by half.
  // Every answer's time is kept here as measured (hrtime, fractions of a millisecond).
  const times: number[] = [];
  events.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => void times.push(ms));
  const result = await instance;
  times.sort((a, b) => a - b);
  const at = (q: number): number =>
    times.length ? times[Math.min(times.length - 1, Math.floor(q * times.length))]! : NaN;
  const answers = ok + failed;
  return {
    rps: ok / result.duration,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: times.length ? times[times.length - 1]! : NaN,
    answers,
    ok,
    failed,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: result.duration,
    bytesPerAnswer: answers ? result.throughput.total / answers : 0,
    samples,
    firstWrongBody,
    connections: opts.connections,
  };
}
