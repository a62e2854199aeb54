// A real graphql-ws client for the live tests, and a collector that turns a subscription into
// "wait for the next n results".
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

export function wsClient(
  httpUrl: string,
  connectionParams?: Record<string, unknown>,
): Client & { closed: Promise<Closed> } {
  let onClosed: (c: Closed) => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: `${httpUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
    lazy: false,
    on: {
      closed: (event) =>
        onClosed({ code: (event as { code: number }).code, reason: String((event as { reason: unknown }).reason) }),
    },
  });
  return Object.assign(client, { closed });
}

export interface Collected<T> {
  results: Array<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>;
  /** Resolves once `n` results have arrived in all (or the subscription ended). */
  until(n: number): Promise<Collected<T>['results']>;
  /** Resolves when the server acknowledged nothing more will come (complete or error). */
  ended: Promise<unknown>;
  unsubscribe(): void;
}

export function collect<T>(client: Client, query: string, variables?: Record<string, unknown>): Collected<T> {
  const results: Collected<T>['results'] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let finish: (v: unknown) => void = () => undefined;
  const ended = new Promise((resolve) => (finish = resolve));
  const wake = (): void => {
    for (const w of [...waiters])
      if (results.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const unsubscribe = client.subscribe<T>(
    { query, variables },
    {
      next: (r) => {
        results.push(r as Collected<T>['results'][number]);
        wake();
      },
      error: (e) => {
        const errors = Array.isArray(e) ? e : [{ message: String((e as Error)?.message ?? e) }];
        results.push({ errors });
        wake();
        finish(e);
        for (const w of waiters.splice(0)) w.resolve();
      },
      complete: () => {
        finish(undefined);
        for (const w of waiters.splice(0)) w.resolve();
      },
    },
  );
  return {
    results,
    ended,
    unsubscribe,
    until: (n) =>
      results.length >= n
        ? Promise.resolve(results)
        : new Promise((resolve) => waiters.push({ n, resolve: () => resolve(results) })),
  };
}

/** Waits until the hub has the subscription registered (subscribe is asynchronous on the server). */
export async function settled(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}
