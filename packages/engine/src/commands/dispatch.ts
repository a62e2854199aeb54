// Command dispatch: finds the handler for the command named by the body's first field, turns thrown
// errors into MongoDB error replies, runs a writing command in one storage write transaction (a large
// insert in several, insertChunks.ts) that lmdb's write thread commits and flushes, and releases the reply
// once that transaction has committed (on the disk too for a journaled write concern).
import type { Document } from 'bson';
import type { ReplyBody } from '../wire/codec.js';
import type { IdLookup } from '../wire/idLookup.js';
import { adminCommands } from './admin.js';
import { aggregateCommands } from './aggregate.js';
import { checkApiParameters, checkReadConcern } from './api.js';
import { bulkWriteCommands } from './bulkWrite.js';
import { collectionCommands } from './collections.js';
import { LaterReply, type CommandContext, type EngineState, type Handler, type Invocation } from './context.js';
import { countCommands } from './count.js';
import { CommandError } from '../errors.js';
import { errorReply } from './error-replies.js';
import { findCommands } from './find.js';
import { failPointCommands } from './failpoints.js';
import { findAndModifyCommands } from './findAndModify.js';
import { findByIdLookup } from './findById.js';
import { createsNothing, indexCommands } from './indexes.js';
import { awaitBuilds, indexBuildCommands } from './index-builds.js';
import { catalogPending, holdCommands } from './catalog-pending.js';
import { chunkedInsertSize, insertInChunks } from './insertChunks.js';
import { ColdCounts, collectColdCounts } from '../query/count.js';
import { writeCommands } from './write.js';

const handlers: Record<string, Handler> = {
  ...adminCommands,
  ...findCommands,
  ...countCommands,
  ...writeCommands,
  ...bulkWriteCommands,
  ...findAndModifyCommands,
  ...aggregateCommands,
  ...collectionCommands,
  ...indexCommands,
  ...indexBuildCommands,
  ...failPointCommands,
};

/** Persistence hook: resolves once every committed write transaction is durable. */
export interface Durability {
  commit(): Promise<void>;
}

/** Commands that may change storage: each runs in one write transaction (storage refuses changes outside one). */
const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'create',
  'collMod',
  'drop',
  'dropDatabase',
  'createIndexes',
  'dropIndexes',
  'bulkWrite',
]);

/** Whether a command may change storage: the write commands, and an aggregate ending in $out or $merge. */
function isWrite(name: string, body: Document): boolean {
  if (WRITE_COMMANDS.has(name)) return true;
  if (name !== 'aggregate' || !Array.isArray(body.pipeline)) return false;
  const last: unknown = body.pipeline.at(-1);
  return !!last && typeof last === 'object' && ('$out' in last || '$merge' in last);
}

/** Commands that change the catalog (collections, indexes), which the heap mirrors ahead of the commit. */
const CATALOG_COMMANDS = new Set(['create', 'collMod', 'drop', 'dropDatabase', 'createIndexes', 'dropIndexes']);

/** The handshake and liveness commands: answered at once, whatever else is under way. */
const HANDSHAKE_COMMANDS = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'buildinfo']);

/** How many times a read command may wait for counts to be walked before it walks the rest on the spot. */
const COUNT_WALK_ROUNDS = 3;

/**
 * A find by `_id` recognised in the request's bytes (wire/idLookup.ts), answered without decoding the command:
 * the whole reply message (frame space in front), or undefined to send the request down the general path
 * (behind a pending catalog change, on a view or a missing collection, or if storage fails, where the general
 * path answers with the error).
 */
export function answerIdLookup(state: EngineState, lookup: IdLookup): Buffer | undefined {
  if (catalogPending(state)) return undefined;
  try {
    return findByIdLookup(state, lookup);
  } catch {
    return undefined;
  }
}

/**
 * Runs one command. The reply is returned directly when the command completes at once (every read), so the
 * wire layer can answer it in the same turn; a promise when it has to wait (every write, for its commit; a
 * change stream; any command behind a pending catalog change).
 */
export function dispatch(
  state: EngineState,
  inv: Invocation,
  durability?: Durability,
  walks = COUNT_WALK_ROUNDS,
): ReplyBody | Promise<ReplyBody> {
  const name = Object.keys(inv.body)[0] ?? '';
  const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
  // A driver's monitor times out a server whose handshake waits (the service's after two seconds): these read no
  // catalog, so they never wait behind a catalog change's commit.
  if (HANDSHAKE_COMMANDS.has(name)) return run(state, inv, name, handler);
  const pendingChange = catalogPending(state);
  if (pendingChange) {
    const after = (): ReplyBody | Promise<ReplyBody> => dispatch(state, inv, durability, walks);
    return pendingChange.then(after, after);
  }
  const streamed = changeStreamCommand(state, inv, name);
  if (streamed) return streamed;
  if (name === 'createIndexes' && createsNothing(commandContext(state, inv))) return run(state, inv, name, handler);
  if (!isWrite(name, inv.body)) {
    try {
      // A count that no index keeps yet and that is large is walked in chunks first, the engine serving other
      // requests meanwhile; the command then runs again and finds it kept (a few rounds at most: counts
      // evicted meanwhile are then walked on the spot).
      return walks > 0 ? collectColdCounts(() => run(state, inv, name, handler)) : run(state, inv, name, handler);
    } catch (e) {
      if (e instanceof LaterReply)
        return e.reply.then(
          (r) => r ?? dispatch(state, { ...inv, sequential: true }, durability, walks),
          (err: unknown) => errorReply(err),
        );
      if (!(e instanceof ColdCounts)) return errorReply(e);
      const again = (): ReplyBody | Promise<ReplyBody> => dispatch(state, inv, durability, walks - 1);
      return e.walk().then(again, again);
    }
  }
  const env = state.catalog.env;
  const chunked = chunkedInsertSize(name, inv);
  const committed =
    chunked !== undefined
      ? insertInChunks(
          inv,
          chunked,
          (fn, ran) => env.writeAsync(fn, ran),
          (part) => run(state, part, name, handler),
        )
      : env.writeAsync(() => run(state, inv, name, handler));
  let reply = committed.then(
    (r) => afterWrite(state, inv, r, durability),
    (e: unknown) => failed(state, name, e),
  );
  if (CATALOG_COMMANDS.has(name) || name === 'aggregate') reply = holdCommands(state, reply);
  // Index builds run on after the command's transaction, other commands with them; the command answers at the end.
  return name === 'createIndexes' ? reply.then(awaitBuilds) : reply;
}

/** The transaction could not commit (storage failure): nothing of the command was kept. */
function failed(state: EngineState, name: string, e: unknown): ReplyBody {
  state.log('write transaction failed', { command: name, error: String(e) });
  return errorReply(e);
}

/**
 * Even a failed command may have written (e.g. an ordered insert up to its first error). Committed is kept
 * through a crash of the engine's process (the pages are in the file); a write concern with `j: true` (or
 * `fsync: true`) also waits until it is on the disk, as MongoDB waits for its journal.
 */
function afterWrite(
  state: EngineState,
  inv: Invocation,
  reply: ReplyBody,
  durability?: Durability,
): ReplyBody | Promise<ReplyBody> {
  if (!journaled(inv.body)) return reply;
  return (durability ? durability.commit() : state.catalog.env.flushed()).then(() => reply);
}

/** Whether the command's write concern asks for the write to be on disk before it is acknowledged. */
function journaled(body: Document): boolean {
  const wc: unknown = body.writeConcern;
  if (!wc || typeof wc !== 'object') return false;
  const { j, fsync } = wc as Document;
  return j === true || fsync === true || j === 1 || fsync === 1;
}

function commandContext(state: EngineState, inv: Invocation): CommandContext {
  const db = typeof inv.body.$db === 'string' ? inv.body.$db : 'admin';
  return {
    state,
    db,
    body: inv.body,
    raw: inv.raw,
    sequences: inv.sequences,
    connectionId: inv.connectionId,
    sequential: inv.sequential,
  };
}

/**
 * Change-stream commands (an aggregate opening one, a getMore on one) may wait for changes: they only read, so
 * they run outside any write transaction, the only commands that are asynchronous.
 */
function changeStreamCommand(state: EngineState, inv: Invocation, name: string): Promise<ReplyBody> | undefined {
  if (!state.changes) return undefined;
  try {
    return state.changes.handle(name, commandContext(state, inv))?.catch((e: unknown) => errorReply(e));
  } catch (e) {
    return Promise.resolve(errorReply(e));
  }
}

function run(state: EngineState, inv: Invocation, name: string, handler: Handler | undefined): ReplyBody {
  let reply: ReplyBody;
  try {
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    checkApiParameters(name, inv.body);
    checkReadConcern(inv.body);
    if (inv.body.txnNumber !== undefined || inv.body.startTransaction !== undefined) {
      // What a standalone mongod answers: transactions and retryable writes need a replica set.
      throw new CommandError(
        'IllegalOperation',
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    reply = handler(commandContext(state, inv));
  } catch (e) {
    if (e instanceof ColdCounts || e instanceof LaterReply) throw e;
    reply = errorReply(e);
    if (!(e instanceof Error) || !('code' in e)) state.log('command failed', { command: name, error: String(e) });
  }
  return reply;
}
