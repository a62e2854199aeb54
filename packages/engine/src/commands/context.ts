// What a command handler receives, and the engine state shared by all connections.
import type { Document } from 'bson';
import type { CursorRegistry } from '../cursors.js';
import type { Catalog } from '../storage/catalog.js';
import type { ReplyBody } from '../wire/codec.js';
import { CommandError } from '../errors.js';
import { evaluateLet } from '../query/options.js';
import { optDoc } from './args.js';
import { decodeCommand } from '../wire/codec.js';
import { typedDecode } from '../query/types.js';

export interface EngineState {
  catalog: Catalog;
  cursors: CursorRegistry;
  /** Change streams and the write-path hooks that feed them (changes/). */
  changes?: ChangeStreamCommands;
  startedAt: number;
  log: (msg: string, fields?: Record<string, unknown>) => void;
  /** mongod's maxIndexBuildMemoryUsageMegabytes: what an index build's sorter holds in memory, about. */
  indexBuildMemoryMB?: number;
  /** Matches from which a search's facets are counted on two threads (facet-thread.ts; undefined: its default). */
  parallelFacetsFrom?: number;
}

/**
 * What the commands need of the change streams (changes/streams.ts), which are built on the commands: the
 * stream commands themselves, whether a cursor id is a stream's, and closing streams by cursor id.
 */
export interface ChangeStreamCommands {
  /** The reply when `ctx` is a change-stream command; undefined (synchronously) for anything else. */
  handle(name: string, ctx: CommandContext): Promise<ReplyBody> | undefined;
  owns(id: bigint): boolean;
  kill(ids: Iterable<unknown>): void;
  close(): void;
}

/** A command as it arrives: its body (and the body's bytes when it came off the wire) and document sequences. */
export interface Invocation {
  body: Document;
  raw?: Buffer;
  sequences: Map<string, Buffer[]>;
  connectionId: number;
  /** Run on this thread alone (again, after its work on two threads could not be used): see LaterReply. */
  sequential?: boolean;
}

export interface CommandContext {
  state: EngineState;
  /** Database the command runs against ($db). */
  db: string;
  body: Document;
  /** The body's BSON bytes, when it came off the wire. */
  raw?: Buffer;
  /** The body with numbers as their BSON types (see typedBody); set directly by commands run inside others. */
  typed?: Document;
  sequences: Map<string, Buffer[]>;
  connectionId: number;
  sequential?: boolean;
}

/**
 * Thrown by a read's handler that has done its share of the work in this turn and left the rest to another
 * thread (commands/facet-thread.ts): `reply` resolves to the answer, or to undefined when the command is to run
 * again, on this thread alone (`sequential`). Reads have no effects, so running one again changes nothing.
 */
export class LaterReply extends Error {
  constructor(readonly reply: Promise<ReplyBody | undefined>) {
    super('answered later');
  }
}

/**
 * Handlers are synchronous: all of a command's effects happen in one turn of the event loop, so
 * commands never interleave and the journal can make each command's effects one durable record.
 */
export type Handler = (ctx: CommandContext) => ReplyBody;

/** The command's target collection name (the value of the command's first field). */
export function collName(ctx: CommandContext): string {
  const name = Object.values(ctx.body)[0];
  if (typeof name !== 'string' || name.length === 0) {
    const cmd = Object.keys(ctx.body)[0];
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${typeof name}`, { cmd });
  }
  return name;
}

/** Statements of a write command, from a kind-1 sequence or the body array. */
export function statements(ctx: CommandContext, field: string): Document[] {
  const seq = ctx.sequences.get(field);
  if (seq) return seq.map((b) => decodeCommand(b));
  const arr = ctx.body[field];
  if (!Array.isArray(arr))
    throw new CommandError('FailedToParse', `BSON field '${field}' is missing but a required field`);
  return arr as Document[];
}

/**
 * The command body decoded again with `promoteValues: false`: every number an Int32, Long or Double object,
 * so the update path can store values with the types they were sent with (query/types.ts). Decoded on first use.
 */
export function typedBody(ctx: CommandContext): Document | undefined {
  if (!ctx.typed && ctx.raw) ctx.typed = typedDecode(ctx.raw);
  return ctx.typed;
}

/** Statements of a write command as typedBody decodes them (from a kind-1 sequence or the body array). */
export function typedStatements(ctx: CommandContext, field: string): Document[] | undefined {
  const seq = ctx.sequences.get(field);
  if (seq) return seq.map((b) => typedDecode(b));
  const arr: unknown = typedBody(ctx)?.[field];
  return Array.isArray(arr) ? (arr as Document[]) : undefined;
}

/** The command's `let` variables, evaluated (see query/options.ts). */
export function letVariables(ctx: CommandContext): Document | undefined {
  return evaluateLet(optDoc(ctx.body.let, 'let'));
}
