// The client-level bulkWrite command (MongoDB 8.0): ops over several namespaces, each run through the
// insert/update/delete handlers as a one-statement command so their semantics stay in one place. The
// reply is a cursor of per-op results (only the errors when errorsOnly) and the summary counts.
import { Long, type Document } from 'bson';
import { decode, encode } from '../storage/bsonio.js';
import { statements, typedStatements, type CommandContext, type Handler } from './context.js';
import { codeNameOf, CommandError } from '../errors.js';
import { errorFields } from './error-replies.js';
import { writeCommands } from './write.js';

interface Totals {
  nErrors: number;
  nInserted: number;
  nMatched: number;
  nModified: number;
  nUpserted: number;
  nDeleted: number;
}

function namespace(nsInfo: Document[], at: unknown): { db: string; coll: string } {
  const entry = typeof at === 'number' ? nsInfo[at] : undefined;
  if (!entry || typeof entry.ns !== 'string')
    throw new CommandError(
      'BadValue',
      `BulkWrite ops entry refers to namespace index ${String(at)}, but nsInfo has ${nsInfo.length} entries`,
    );
  const dot = entry.ns.indexOf('.');
  if (dot <= 0) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${entry.ns}'`);
  return { db: entry.ns.slice(0, dot), coll: entry.ns.slice(dot + 1) };
}

/** One op as the single-statement write command it amounts to, and which counter its `n` feeds. */
function asCommand(
  op: Document,
  nsInfo: Document[],
  ctx: CommandContext,
): { kind: 'insert' | 'update' | 'delete'; db: string; body: Document } {
  const common: Document = { ordered: true };
  for (const k of ['let', 'bypassDocumentValidation']) if (ctx.body[k] !== undefined) common[k] = ctx.body[k];
  if ('insert' in op) {
    const ns = namespace(nsInfo, op.insert);
    return { kind: 'insert', db: ns.db, body: { insert: ns.coll, documents: [op.document], ...common } };
  }
  if ('update' in op) {
    const ns = namespace(nsInfo, op.update);
    const st: Document = { q: op.filter, u: op.updateMods, multi: op.multi === true, upsert: op.upsert === true };
    for (const k of ['arrayFilters', 'collation', 'hint', 'sort']) if (op[k] !== undefined) st[k] = op[k];
    return { kind: 'update', db: ns.db, body: { update: ns.coll, updates: [st], ...common } };
  }
  if ('delete' in op) {
    const ns = namespace(nsInfo, op.delete);
    const st: Document = { q: op.filter, limit: op.multi === true ? 0 : 1 };
    for (const k of ['collation', 'hint']) if (op[k] !== undefined) st[k] = op[k];
    return { kind: 'delete', db: ns.db, body: { delete: ns.coll, deletes: [st], ...common } };
  }
  throw new CommandError('FailedToParse', `Unrecognized bulkWrite op: ${Object.keys(op)[0] ?? '(empty)'}`);
}

/**
 * The sub-command's context. `typedOp`: the op as sent, numbers as BSON type objects: an insert stores the
 * document encoded from it, an update gets its filter and update as the typed statement (query/types.ts).
 */
function subContext(
  ctx: CommandContext,
  cmd: ReturnType<typeof asCommand>,
  typedOp: Document | undefined,
): CommandContext {
  const sequences = new Map<string, Buffer[]>();
  let typed: Document | undefined;
  if (typedOp && cmd.kind === 'insert' && typedOp.document && typeof typedOp.document === 'object')
    sequences.set('documents', [encode(typedOp.document as Document)]);
  if (typedOp && cmd.kind === 'update') typed = { updates: [{ q: typedOp.filter, u: typedOp.updateMods }] };
  return { ...ctx, db: cmd.db, body: cmd.body, raw: undefined, typed, sequences };
}

function runOp(
  ctx: CommandContext,
  op: Document,
  typedOp: Document | undefined,
  idx: number,
  nsInfo: Document[],
  totals: Totals,
): Document {
  let reply: Document;
  let kind: 'insert' | 'update' | 'delete';
  try {
    const cmd = asCommand(op, nsInfo, ctx);
    kind = cmd.kind;
    reply = writeCommands[kind]!(subContext(ctx, cmd, typedOp)) as Document;
  } catch (e) {
    totals.nErrors++;
    return { ok: 0, idx, n: 0, ...errorFields(e) };
  }
  const failed = (reply.writeErrors as Document[] | undefined)?.[0];
  if (failed) {
    totals.nErrors++;
    const { index: _i, ...err } = failed;
    return { ok: 0, idx, n: 0, ...err, codeName: codeNameOf(err.code as number) };
  }
  const n = reply.n as number;
  if (kind === 'insert') {
    totals.nInserted += n;
    return { ok: 1, idx, n };
  }
  if (kind === 'delete') {
    totals.nDeleted += n;
    return { ok: 1, idx, n };
  }
  const upserted = (reply.upserted as Document[] | undefined)?.[0];
  if (upserted) totals.nUpserted++;
  else totals.nMatched += n;
  totals.nModified += reply.nModified as number;
  const out: Document = { ok: 1, idx, n, nModified: reply.nModified };
  if (upserted) out.upserted = { _id: upserted._id };
  return out;
}

export const bulkWriteCommands: Record<string, Handler> = {
  bulkWrite: (ctx) => {
    if (ctx.db !== 'admin')
      throw new CommandError('Unauthorized', 'bulkWrite may only be run against the admin database.');
    const ops = statements(ctx, 'ops');
    const typedOps = typedStatements(ctx, 'ops');
    const nsInfo = statements(ctx, 'nsInfo');
    const ordered = ctx.body.ordered !== false;
    const errorsOnly = ctx.body.errorsOnly === true;
    const totals: Totals = { nErrors: 0, nInserted: 0, nMatched: 0, nModified: 0, nUpserted: 0, nDeleted: 0 };
    const results: Buffer[] = [];
    for (const [idx, op] of ops.entries()) {
      const r = runOp(ctx, op, typedOps?.[idx], idx, nsInfo, totals);
      if (!errorsOnly || r.ok === 0) results.push(encode(r));
      if (r.ok === 0 && ordered) break;
    }
    const ns = 'admin.$cmd.bulkWrite';
    const batch = ctx.state.cursors.first(ns, results.values(), undefined, false);
    return {
      cursor: { id: Long.fromBigInt(batch.id), firstBatch: batch.docs.map((d) => decode(d)), ns },
      ...totals,
      ok: 1,
    };
  },
};
