// Subscriptions as graphql-ws runs them, with two changes. Each event runs with a context of its own (fresh
// loaders, its own `now`): a loader cache kept for the life of a subscription would show the state of its
// first event for ever (a poll's `voted` after the subscriber voted). And for anonymous subscribers an event's
// answer is computed, serialised and encoded once per distinct operation (document, operation name, variables)
// and the same bytes written to every socket (src/live/shared-answer.ts): ten thousand readers of one live blog
// cost one execution and one JSON.stringify per message, then one socket write each, with no promise or
// iterator step per reader.
// Signed-in subscribers may select viewer-dependent fields (Poll.voted), so theirs are executed one by one.
import {
  createSourceEventStream,
  type DocumentNode,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
} from 'graphql';
import type { Context } from '../context.js';
import { Loaders } from '../store/loaders.js';
import type { LiveFeed } from './feed.js';
import { mapIterator } from './iterators.js';
import { Outbox, SharedAnswer } from './shared-answer.js';
import { Subscriber } from './subscriber.js';

type Result = ExecutionResult | Promise<ExecutionResult>;
type Subscribe = (args: ExecutionArgs) => Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;

/**
 * Per event payload (the hub hands every subscriber the same object): its answers by document, then by operation
 * name and variables. Subscribers of one query text share its parsed document (src/live/ws-server.ts).
 */
const shared = new WeakMap<object, Map<DocumentNode, Map<string, SharedAnswer>>>();

function answersFor(event: object, document: DocumentNode): Map<string, SharedAnswer> {
  let byDocument = shared.get(event);
  if (!byDocument) shared.set(event, (byDocument = new Map()));
  let answers = byDocument.get(document);
  if (!answers) byDocument.set(document, (answers = new Map()));
  return answers;
}

/** The subscription's context as one event sees it: caches and the clock start afresh. */
function eventContext(context: Context): Context {
  return { ...context, loaders: new Loaders(context.store, context.operation), now: new Date() };
}

type Format = (result: ExecutionResult) => ExecutionResult | FormattedExecutionResult;

/**
 * One anonymous subscription on the shared path. A class rather than closures: ten thousand subscriptions each
 * holding a few functions cost more than the objects themselves (the bundle names every function it keeps).
 */
class SharedSubscription {
  private readonly variant: string;
  private readonly outbox: Outbox;

  constructor(
    private readonly args: ExecutionArgs,
    private readonly format: Format,
    subscriber: Subscriber<unknown>,
    live: Required<LiveFeed>,
  ) {
    this.variant = `${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}`;
    this.outbox = new Outbox(live.subscriptionId, live.connection, subscriber);
  }

  deliver(event: unknown): void {
    if (event === null || typeof event !== 'object') return;
    const answers = answersFor(event, this.args.document);
    let answer = answers.get(this.variant);
    if (answer === undefined) {
      const context = this.args.contextValue as Context;
      const result = execute({ ...this.args, rootValue: event, contextValue: eventContext(context) });
      const text =
        result instanceof Promise
          ? result.then((r) => JSON.stringify(this.format(r)))
          : JSON.stringify(this.format(result));
      answers.set(this.variant, (answer = new SharedAnswer(text, context.log)));
    }
    this.outbox.offer(answer);
  }
}

/** `format`: what the server does to a result before it is sent (error masking). */
export function sharedSubscribe(format: Format): Subscribe {
  return async (args) => {
    const stream = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in stream)) return stream;
    const context = args.contextValue as Context;
    const live = context.live;
    if (context.viewer !== null || !(stream instanceof Subscriber) || live?.subscriptionId === undefined)
      return mapIterator(stream as AsyncIterableIterator<unknown>, (payload): Result =>
        execute({ ...args, rootValue: payload, contextValue: eventContext(context) }),
      );
    (stream as Subscriber<unknown>).deliverTo(
      new SharedSubscription(args, format, stream as Subscriber<unknown>, live as Required<LiveFeed>),
    );
    // graphql-ws waits on this iterator until the subscription ends; completing it calls return(), which ends it.
    return stream as AsyncIterableIterator<ExecutionResult>;
  };
}
