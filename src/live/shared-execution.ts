// Subscriptions as graphql-ws runs them, with two changes. Each event runs with a context of its own (fresh
// loaders, its own `now`): a loader cache kept for the life of a subscription would show the state of its
// first event for ever (a poll's `voted` after the subscriber voted). And for anonymous subscribers an event's
// result is computed once per distinct operation (document, operation name, variables) and shared: a thousand
// readers of one live blog cost one execution per message, not a thousand. Signed-in subscribers may select
// viewer-dependent fields (Poll.voted), so theirs are executed one by one.
import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Context } from '../context.js';
import { Loaders } from '../store/loaders.js';
import { mapIterator } from './iterators.js';

type Result = ExecutionResult | Promise<ExecutionResult>;

/** Per event payload (the hub hands every subscriber the same object): results by operation. */
const shared = new WeakMap<object, Map<string, Result>>();

function operationKey(args: ExecutionArgs): string {
  return `${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${args.document.loc?.source.body ?? ''}`;
}

/** The subscription's context as one event sees it: caches and the clock start afresh. */
function eventContext(context: Context): Context {
  return { ...context, loaders: new Loaders(context.store, context.operation), now: new Date() };
}

export async function subscribeShared(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const context = args.contextValue as Context;
  const key = context.viewer === null ? operationKey(args) : undefined;
  return mapIterator(stream as AsyncIterableIterator<unknown>, (payload) => {
    const run = (): Result => execute({ ...args, rootValue: payload, contextValue: eventContext(context) });
    if (key === undefined || payload === null || typeof payload !== 'object') return run();
    let byOperation = shared.get(payload);
    if (!byOperation) shared.set(payload, (byOperation = new Map()));
    let result = byOperation.get(key);
    if (!result) byOperation.set(key, (result = run()));
    return result;
  });
}
