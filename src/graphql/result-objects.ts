// Result objects as the executor builds them: ordinary objects in field order rather than graphql-js's
// `Object.create(null)` dictionaries, which V8 makes larger and slower to fill and serialise (see execute.ts).
import type { Context } from './execution-context.js';

export type Result = Record<string, unknown>;
export type Completed = unknown;

export const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
export const isObjectLike = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
export const isIterableObject = (value: unknown): value is Iterable<unknown> =>
  typeof value === 'object' &&
  typeof (value as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function';

export function setKey(object: Result, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** graphql-js's `promiseForObject`, building an ordinary object. */
export function promiseForObject(ctx: Context, object: Result): Promise<Result> {
  return Promise.all(Object.values(object)).then((resolved) => {
    const out: Result = {};
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) setKey(out, keys[i]!, resolved[i]);
    ctx.settled.push(out);
    return out;
  });
}
