// One HTTP attempt of a webhook: POST the signed body, with a connect timeout and a total one, no redirects
// followed (a 3xx is a failed attempt), connections only to addresses the target guard allows.
import type { Agent, Dispatcher } from 'undici';
import type { DeliveryAttemptDoc } from '../store/webhooks/webhook.docs.js';
import { signedHeaders } from './signing.js';
import { TargetRefused, type TargetGuard } from './target-guard.js';

export interface SenderOptions {
  connectTimeoutMs: number;
  /** The whole attempt: connecting, sending, and reading the answer. */
  timeoutMs: number;
}

export interface Message {
  id: string;
  url: string;
  body: string;
  secrets: string[];
}

/** Kept from an answer's body in the log: enough to see what the receiver said. */
const MAX_ERROR_CHARS = 200;

/**
 * A connection pool whose every request has the attempt's timeouts (and, for webhooks, the target guard's
 * lookup). undici is loaded, and the pool made, by the first request: it is 0.8 MB of code that every start
 * would otherwise compile, while most processes never send anything.
 */
export class AttemptPool {
  private agent?: Promise<{ agent: Agent; request: typeof import('undici').request }>;

  constructor(
    private readonly options: SenderOptions,
    private readonly lookup?: TargetGuard['lookup'],
  ) {}

  async request(
    url: string | URL,
    options: Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'dispatcher'>,
  ): Promise<Dispatcher.ResponseData> {
    // Through `default` (its module.exports): a bundled CommonJS package, imported dynamically, has no other export.
    this.agent ??= import('undici').then(({ default: { Agent, request } }) => ({
      request,
      agent: new Agent({
        connect: { timeout: this.options.connectTimeoutMs, ...(this.lookup && { lookup: this.lookup }) },
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        keepAliveTimeout: 4_000,
      }),
    }));
    const { agent, request } = await this.agent;
    return request(url, { ...options, dispatcher: agent });
  }

  async close(): Promise<void> {
    // A pool that never loaded (undici failed to import) has nothing to close.
    const made = await this.agent?.catch(() => undefined);
    await made?.agent.close();
  }
}

/** Starts timing an attempt; the function returned records its outcome. */
export function attemptTimer(now: Date): (responseStatus: number | null, error: string | null) => DeliveryAttemptDoc {
  const started = performance.now();
  return (responseStatus, error) => ({
    at: now,
    responseStatus,
    durationMs: Math.round(performance.now() - started),
    error,
  });
}

export class WebhookSender {
  private readonly pool: AttemptPool;

  constructor(
    private readonly guard: TargetGuard,
    private readonly options: SenderOptions,
  ) {
    this.pool = new AttemptPool(options, guard.lookup);
  }

  async send(message: Message, now = new Date()): Promise<DeliveryAttemptDoc> {
    const done = attemptTimer(now);
    try {
      const url = this.guard.checkUrl(message.url);
      const res = await this.pool.request(url, {
        method: 'POST',
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'gateway-webhooks/1',
          ...signedHeaders(message.secrets, message.id, now, message.body),
        },
        body: message.body,
      });
      const text = await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) return done(res.statusCode, null);
      const why =
        res.statusCode >= 300 && res.statusCode < 400 ? 'redirects are not followed' : text.slice(0, MAX_ERROR_CHARS);
      return done(res.statusCode, `HTTP ${res.statusCode}${why ? `: ${why}` : ''}`);
    } catch (err) {
      return done(null, describeFailure(err));
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Errors may come from another realm (the abort signal's DOMException): judged by name and code, not class. */
export function describeFailure(err: unknown): string {
  const { name, code, message, cause } = (err ?? {}) as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (err instanceof TargetRefused) return `refused target: ${err.message}`;
  if (cause instanceof TargetRefused) return `refused target: ${cause.message}`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect timed out';
  if (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    (typeof code === 'string' && /^UND_ERR_.*TIMEOUT$/.test(code))
  )
    return 'timed out';
  return `${typeof code === 'string' ? `${code}: ` : ''}${typeof message === 'string' ? message : String(err)}`;
}
