// Command dispatch: finds the handler for the command named by the body's first field, turns thrown
// errors into MongoDB error replies, and waits for the journal to make the command's writes durable
// before the reply is released.
import type { Document } from 'bson';
import type { ReplyBody } from '../wire/codec.js';
import { adminCommands } from './admin.js';
import { aggregateCommands } from './aggregate.js';
import { bulkWriteCommands } from './bulkWrite.js';
import { collectionCommands } from './collections.js';
import type { EngineState, Handler } from './context.js';
import { countCommands } from './count.js';
import { CommandError, errorReply } from './errors.js';
import { findCommands } from './find.js';
import { findAndModifyCommands } from './findAndModify.js';
import { indexCommands } from './indexes.js';
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
};

/** Persistence hook: seals the entries a command logged into one record and makes it durable. */
export interface Durability {
  commit(): Promise<void>;
}

export interface Invocation {
  body: Document;
  sequences: Map<string, Buffer[]>;
  connectionId: number;
}

export async function dispatch(state: EngineState, inv: Invocation, durability?: Durability): Promise<ReplyBody> {
  const name = Object.keys(inv.body)[0] ?? '';
  const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
  let reply: ReplyBody;
  try {
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    if (inv.body.txnNumber !== undefined || inv.body.startTransaction !== undefined) {
      // What a standalone mongod answers: transactions and retryable writes need a replica set.
      throw new CommandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
    }
    const db = typeof inv.body.$db === 'string' ? inv.body.$db : 'admin';
    reply = handler({ state, db, body: inv.body, sequences: inv.sequences, connectionId: inv.connectionId });
  } catch (e) {
    reply = errorReply(e);
    if (!(e instanceof Error) || !('code' in e)) state.log('command failed', { command: name, error: String(e) });
  }
  // Even a failed command may have written (e.g. an ordered insert up to its first error).
  if (durability) await durability.commit();
  return reply;
}
