// Subscriptions as graphql-ws runs them, with two changes. Each event runs with a context of its own (fresh
// loaders, its own `now`): a loader cache kept for the life of a subscription would show the state of its
// first event for ever (a poll's `voted` after the subscriber voted). And for anonymous subscribers an event's
// answer is computed and serialised once per distinct operation (document, operation name, variables) and the
// same text written to every socket: ten thousand readers of one live blog cost one execution and one
// JSON.stringify per message, then one socket write each, with no promise or iterator step per reader.
// Signed-in subscribers may select viewer-dependent fields (Poll.voted), so theirs are executed one by one.
import {
  createSourceEventStream,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
} from 'graphql';
import type { Context } from '../context.js';
import { Loaders } from '../store/loaders.js';
import { mapIterator } from './iterators.js';
import { Subscriber } from './subscriber.js';

type Result = ExecutionResult | Promise<ExecutionResult>;
type Subscribe = (args: ExecutionArgs) => Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;

/** Per event payload (the hub hands every subscriber the same object): serialised answers by operation. */
const shared = new WeakMap<object, Map<string, string | Promise<string>>>();

function operationKey(args: ExecutionArgs): string {
  return `${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${args.document.loc?.source.body ?? ''}`;
}

/** The subscription's context as one event sees it: caches and the clock start afresh. */
function eventContext(context: Context): Context {
  return { ...context, loaders: new Loaders(context.store, context.operation), now: new Date() };
}

/** `format`: what the server does to a result before it is sent (error masking). */
export function sharedSubscribe(
  format: (result: ExecutionResult) => ExecutionResult | FormattedExecutionResult,
): Subscribe {
  return async (args) => {
    const stream = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in stream)) return stream;
    const context = args.contextValue as Context;
    const run = (payload: unknown): Result =>
      execute({ ...args, rootValue: payload, contextValue: eventContext(context) });
    const live = context.live;
    if (context.viewer !== null || !(stream instanceof Subscriber) || live?.subscriptionId === undefined)
      return mapIterator(stream as AsyncIterableIterator<unknown>, run);
    const key = operationKey(args);
    const serialise = (result: ExecutionResult): string => JSON.stringify(format(result));
    const prefix = `{"id":${JSON.stringify(live.subscriptionId)},"type":"next","payload":`;
    const send = (payload: string): void => live.connection.send(`${prefix}${payload}}`);
    // Answers computed asynchronously go out in the order of their events.
    let pending: Promise<void> | undefined;
    (stream as Subscriber<unknown>).deliverTo((event) => {
      if (event === null || typeof event !== 'object') return;
      let byOperation = shared.get(event);
      if (!byOperation) shared.set(event, (byOperation = new Map()));
      let payload = byOperation.get(key);
      if (payload === undefined) {
        const result = run(event);
        byOperation.set(key, (payload = result instanceof Promise ? result.then(serialise) : serialise(result)));
      }
      if (pending === undefined && typeof payload === 'string') return send(payload);
      const after: Promise<void> = (pending ?? Promise.resolve())
        .then(() => payload)
        .then(send, (err: unknown) => context.log.error({ err }, 'live: an event could not be answered'))
        .finally(() => {
          if (pending === after) pending = undefined;
        });
      pending = after;
    });
    // graphql-ws waits on this iterator until the subscription ends; completing it calls return(), which ends it.
    return stream as AsyncIterableIterator<ExecutionResult>;
  };
}
