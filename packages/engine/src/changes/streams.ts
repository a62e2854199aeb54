// Change streams as commands: `aggregate` whose first stage is $changeStream opens one, `getMore` on it
// waits (awaitData, up to maxAwaitTimeMS) for new events, `killCursors` closes it. Dispatch hands these
// commands here before the ordinary handlers (the only async command path: a waiting getMore holds just
// its own connection, and reads only).
import { Long, type Document } from 'bson';
import { randomBytes } from 'node:crypto';
import type { ChangeStreamCommands, CommandContext } from '../commands/context.js';
import { optDoc, optInt, toBigInt } from '../commands/args.js';
import { CommandError } from '../errors.js';
import { decode } from '../storage/bsonio.js';
import type { ReplyBody } from '../wire/codec.js';
import type { BeforeChangeMode, FullDocumentMode, Lookup } from './events.js';
import type { ChangeSource } from './source.js';
import { ChangeStream, checkStages, type StreamTarget } from './stream.js';
import { parseToken, positionOfTimestamp, timestampOf } from './token.js';

const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;
const DEFAULT_AWAIT_MS = 1000;
const FULL_DOCUMENT = new Set(['default', 'updateLookup', 'whenAvailable', 'required']);
const BEFORE_CHANGE = new Set(['off', 'whenAvailable', 'required']);

export class ChangeStreams implements ChangeStreamCommands {
  private readonly open = new Map<bigint, ChangeStream>();
  private readonly waiting = new Set<() => void>();
  private readonly reaper: NodeJS.Timeout;

  constructor(
    readonly source: ChangeSource,
    private readonly lookup: Lookup,
    private readonly idleMs = 10 * 60 * 1000,
  ) {
    this.reaper = setInterval(() => this.reap(), Math.min(60_000, idleMs)).unref();
  }

  /** The reply when `ctx` is a change-stream command; undefined (synchronously) for anything else. */
  handle(name: string, ctx: CommandContext): Promise<ReplyBody> | undefined {
    const b = ctx.body;
    if (
      name === 'aggregate' &&
      Array.isArray(b.pipeline) &&
      b.pipeline[0] &&
      typeof b.pipeline[0] === 'object' &&
      '$changeStream' in b.pipeline[0]
    ) {
      return Promise.resolve(this.start(ctx));
    }
    if (name === 'getMore') {
      const stream = this.open.get(toBigInt(b.getMore));
      return stream ? this.more(stream, ctx) : undefined;
    }
    if (name === 'killCursors' && Array.isArray(b.cursors)) {
      // Ours are closed here; the ordinary handler then answers for the whole list.
      this.kill(b.cursors);
    }
    return undefined;
  }

  /** Closes the change streams among these cursor ids (the others are not ours). */
  kill(ids: Iterable<unknown>): void {
    for (const raw of ids) this.open.delete(toBigInt(raw));
  }

  owns(id: bigint): boolean {
    return this.open.has(id);
  }

  close(): void {
    clearInterval(this.reaper);
    this.source.close();
    this.open.clear();
    for (const wake of [...this.waiting]) wake();
  }

  private start(ctx: CommandContext): Document {
    const b = ctx.body;
    const cursorOpts = optDoc(b.cursor, 'cursor');
    if (!cursorOpts)
      throw new CommandError(
        'FailedToParse',
        "The 'cursor' option is required, except for aggregate with the explain argument",
      );
    const spec = optDoc((b.pipeline as Document[])[0]!.$changeStream, '$changeStream') ?? {};
    const stages = (b.pipeline as Document[]).slice(1);
    checkStages(stages);
    const cluster = spec.allChangesForCluster === true;
    if (cluster && ctx.db !== 'admin')
      throw new CommandError(
        'InvalidOptions',
        "$changeStream may only be run with 'allChangesForCluster: true' on the 'admin' database",
      );
    const whole = b.aggregate === 1 || b.aggregate === 1.0;
    if (!whole && typeof b.aggregate !== 'string')
      throw new CommandError('FailedToParse', 'aggregate needs a collection name or 1');
    const target: StreamTarget = { db: ctx.db, coll: whole ? undefined : (b.aggregate as string), cluster };
    const fullDocument = String(spec.fullDocument ?? 'default');
    const beforeChange = String(spec.fullDocumentBeforeChange ?? 'off');
    if (!FULL_DOCUMENT.has(fullDocument))
      throw new CommandError('BadValue', `unknown fullDocument mode '${fullDocument}'`);
    if (!BEFORE_CHANGE.has(beforeChange))
      throw new CommandError('BadValue', `unknown fullDocumentBeforeChange mode '${beforeChange}'`);

    const start = this.startPosition(spec);
    const id = this.newId(ctx);
    const ns = target.coll !== undefined ? `${ctx.db}.${target.coll}` : `${ctx.db}.$cmd.aggregate`;
    const modes = {
      epoch: this.source.epoch,
      fullDocument: fullDocument as FullDocumentMode,
      beforeChange: beforeChange as BeforeChangeMode,
      lookup: this.lookup,
      expanded: spec.showExpandedEvents === true,
    };
    const stream = new ChangeStream(id, ns, target, modes, stages, start);
    const batchSize = optInt(cursorOpts.batchSize, 'cursor.batchSize');
    const docs = batchSize === 0 ? [] : stream.read(this.source, batchSize ?? 101, MAX_BATCH_BYTES);
    if (!stream.invalidated) this.open.set(id, stream);
    return this.reply(stream, 'firstBatch', docs, true);
  }

  /** Where a new stream starts reading: after a token, at an operation time, or at the newest change. */
  private startPosition(spec: Document): bigint {
    const given = ['resumeAfter', 'startAfter', 'startAtOperationTime'].filter((k) => spec[k] !== undefined);
    if (given.length > 1) throw new CommandError('BadValue', `Only one of ${given.join(', ')} may be given`);
    let position = this.source.latest();
    let epoch = this.source.epoch;
    if (spec.resumeAfter !== undefined) {
      const point = parseToken(spec.resumeAfter, 'resumeAfter');
      if (point.invalidate)
        throw new CommandError(
          'InvalidResumeToken',
          'Cannot resume after an invalidate event; use startAfter to start a new stream after it',
        );
      ({ position, epoch } = point);
    } else if (spec.startAfter !== undefined) {
      ({ position, epoch } = parseToken(spec.startAfter, 'startAfter'));
    } else if (spec.startAtOperationTime !== undefined) {
      position = positionOfTimestamp(spec.startAtOperationTime, 'startAtOperationTime') - 1n;
    } else return position;
    if (epoch !== this.source.epoch || position < this.source.floor()) {
      throw new CommandError(
        'ChangeStreamHistoryLost',
        'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
      );
    }
    return position;
  }

  private async more(stream: ChangeStream, ctx: CommandContext): Promise<ReplyBody> {
    stream.lastUsed = Date.now();
    const batchSize = optInt(ctx.body.batchSize, 'batchSize') || Infinity;
    let docs = stream.read(this.source, batchSize, MAX_BATCH_BYTES);
    // Nothing new: wait for a write. Nothing found in the part of a long history read so far: answer at once, with
    // the position reached (the driver asks again).
    if (docs.length === 0 && !stream.invalidated && !stream.behind) {
      await this.waitForAppend(optInt(ctx.body.maxTimeMS, 'maxTimeMS') ?? DEFAULT_AWAIT_MS);
      if (!this.open.has(stream.id)) throw new CommandError('CursorNotFound', `cursor id ${stream.id} not found`);
      docs = stream.read(this.source, batchSize, MAX_BATCH_BYTES);
    }
    stream.lastUsed = Date.now();
    if (stream.invalidated) this.open.delete(stream.id);
    return this.reply(stream, 'nextBatch', docs, false);
  }

  private waitForAppend(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        off();
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(ms, 60_000))).unref();
      const off = this.source.onAppend(done);
      this.waiting.add(done);
    });
  }

  private reply(stream: ChangeStream, field: 'firstBatch' | 'nextBatch', docs: Buffer[], first: boolean): Document {
    const id = stream.invalidated ? 0n : stream.id;
    const cursor: Document = {
      [field]: docs.map((d) => decode(d)),
      postBatchResumeToken: stream.resumeToken,
      id: Long.fromBigInt(id),
      ns: stream.ns,
    };
    return { cursor, ...(first ? { operationTime: timestampOf(this.source.latest()) } : {}), ok: 1 };
  }

  private newId(ctx: CommandContext): bigint {
    for (;;) {
      const id = randomBytes(8).readBigInt64LE(0) & 0x7fffffffffffffffn;
      if (id !== 0n && !this.open.has(id) && !ctx.state.cursors.get(id)) return id;
    }
  }

  private reap(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const s of [...this.open.values()]) if (s.lastUsed < cutoff) this.open.delete(s.id);
  }
}
