// mongod's `failCommand` fail point (a test command): `configureFailPoint` makes the next matching commands
// fail with a chosen error, carry a write concern error, wait, or close their connection, as MongoDB's
// specification tests (retryable reads, CRUD, change streams) and the drivers' own tests expect of a server.
// Also `failGetMoreAfterCursorCheckout` (data `{errorCode}`): a getMore fails as if its cursor had failed,
// so the error takes the labels the server gives (ResumableChangeStreamError on a change stream). Like mongod, the
// engine accepts it only when test commands are enabled (`--setParameter enableTestCommands=1`, or
// `testCommands` in startEngine's options); otherwise the command does not exist.
//
//   { configureFailPoint: "failCommand", mode: "alwaysOn" | "off" | { times: n } | { skip: n } | { activationProbability: p },
//     data: { failCommands: [names], errorCode?, errorLabels?, closeConnection?, blockConnection?, blockTimeMS?,
//             writeConcernError?, appName?, namespace? } }
//
// Written here because the behaviour is mongod's own (src/mongo/db/commands/fail_point_cmd.cpp and
// failCommand in service_entry_point_common.cpp); no library provides it.
import type { Document } from 'bson';
import type { CommandContext, EngineState, Handler } from './context.js';
import { codeNameOf, CommandError } from '../errors.js';
import { toBigInt } from './args.js';

/** What a matched command does instead of, or besides, running. */
export interface FailAction {
  /** Close the connection without answering. */
  closeConnection: boolean;
  /** Wait this long before going on (blockConnection). */
  blockMs: number;
  /** Answer this error instead of running the command. */
  error?: Document;
  /** Run the command, then add this to its reply. */
  writeConcernError?: Document;
}

type Mode =
  | { kind: 'alwaysOn' }
  | { kind: 'times'; left: number }
  | { kind: 'skip'; left: number }
  | { kind: 'probability'; p: number };

interface FailCommand {
  mode: Mode;
  commands: Set<string>;
  data: Document;
  appName?: string;
  namespace?: string;
}

interface FailPoints {
  failCommand?: FailCommand;
  failGetMore?: { mode: Mode; code: number; appName?: string; namespace?: string };
  /** Times each fail point has fired since it was last set (the `count` configureFailPoint answers). */
  fired: Map<string, number>;
}

const enabled = new WeakMap<EngineState, FailPoints>();

/** Turns the test commands on for this engine (startEngine's `testCommands` option). */
export function enableTestCommands(state: EngineState): void {
  if (!enabled.has(state)) enabled.set(state, { fired: new Map() });
}

/** Whether any fail point is set: the wire layer then sends every command through `failAction`. */
export function failPointSet(state: EngineState): boolean {
  const points = enabled.get(state);
  return points !== undefined && (points.failCommand !== undefined || points.failGetMore !== undefined);
}

/**
 * Codes mongod labels ResumableChangeStreamError on a change stream's getMore (ErrorLabelBuilder: retriable,
 * network and retargeting errors, RetryChangeStream, FailedToSatisfyReadPreference).
 */
const RESUMABLE = new Set([6, 7, 63, 89, 91, 133, 150, 189, 234, 262, 9001, 10107, 11600, 11602, 13388, 13435, 13436]);

/**
 * What the fail point does to this command (undefined: nothing). Counts it against `times` / `skip` as mongod
 * does: only commands the fail point names, from the named application, on the named namespace.
 */
export function failAction(state: EngineState, body: Document, appName: string | undefined): FailAction | undefined {
  const points = enabled.get(state);
  if (!points) return undefined;
  const name = Object.keys(body)[0] ?? '';
  const getMore = points.failGetMore;
  if (getMore && name === 'getMore') {
    const action = failGetMore(state, points, getMore, body, appName);
    if (action) return action;
  }
  const fc = points.failCommand;
  if (!fc) return undefined;
  if (!fc.commands.has(name) || name === 'configureFailPoint') return undefined;
  if (fc.appName !== undefined && fc.appName !== appName) return undefined;
  if (fc.namespace !== undefined && fc.namespace !== `${String(body.$db)}.${String(body[name])}`) return undefined;
  const d = fc.data;
  // As mongod: a fail point with nothing to do is not entered (and uses up no `times`); a write concern error
  // applies only to a command that takes a write concern.
  const wce = d.writeConcernError && typeof d.writeConcernError === 'object' && takesWriteConcern(name, body);
  if (d.closeConnection !== true && typeof d.errorCode !== 'number' && d.blockConnection !== true && !wce)
    return undefined;
  if (!fires(fc)) return undefined;
  points.fired.set('failCommand', (points.fired.get('failCommand') ?? 0) + 1);
  if (fc.mode.kind === 'times' && fc.mode.left === 0) points.failCommand = undefined;
  const action: FailAction = {
    closeConnection: d.closeConnection === true,
    blockMs: d.blockConnection === true ? Math.max(0, Number(d.blockTimeMS ?? 0)) : 0,
  };
  if (typeof d.errorCode === 'number') {
    const code = Math.trunc(d.errorCode);
    action.error = {
      ok: 0,
      errmsg: "Failing command via 'failCommand' failpoint",
      code,
      codeName: codeNameOf(code),
      ...(Array.isArray(d.errorLabels) ? { errorLabels: d.errorLabels } : {}),
    };
  } else if (wce) {
    action.writeConcernError = d.writeConcernError as Document;
  }
  return action;
}

/**
 * failGetMoreAfterCursorCheckout: as mongod, only for a cursor that exists (else the getMore's own
 * CursorNotFound), from the named application and namespace; the failed getMore's cursor is deleted, and the
 * error takes the labels the server gives it.
 */
function failGetMore(
  state: EngineState,
  points: FailPoints,
  fp: NonNullable<FailPoints['failGetMore']>,
  body: Document,
  appName: string | undefined,
): FailAction | undefined {
  const id = toBigInt(body.getMore);
  const cursor = state.cursors.get(id);
  const stream = state.changes?.owns(id) === true;
  if (!cursor && !stream) return undefined;
  const ns = cursor ? cursor.ns : `${String(body.$db)}.${String(body.collection)}`;
  if (fp.appName !== undefined && fp.appName !== appName) return undefined;
  if (fp.namespace !== undefined && fp.namespace !== ns) return undefined;
  if (!fires(fp)) return undefined;
  points.fired.set('failGetMoreAfterCursorCheckout', (points.fired.get('failGetMoreAfterCursorCheckout') ?? 0) + 1);
  if (fp.mode.kind === 'times' && fp.mode.left === 0) points.failGetMore = undefined;
  if (cursor) state.cursors.kill(id);
  else state.changes?.kill([id]);
  const resumable = stream && RESUMABLE.has(fp.code);
  const error = {
    ok: 0,
    errmsg: "Hit the 'failGetMoreAfterCursorCheckout' failpoint",
    code: fp.code,
    codeName: codeNameOf(fp.code),
    ...(resumable ? { errorLabels: ['ResumableChangeStreamError'] } : {}),
  };
  return { closeConnection: false, blockMs: 0, error };
}

/** Commands that take a write concern (a fail point's writeConcernError applies to these only). */
const WRITE_CONCERN_COMMANDS = new Set([
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
  'renameCollection',
]);

function takesWriteConcern(name: string, body: Document): boolean {
  if (WRITE_CONCERN_COMMANDS.has(name)) return true;
  if (name !== 'aggregate' || !Array.isArray(body.pipeline)) return false;
  const last: unknown = body.pipeline.at(-1);
  return !!last && typeof last === 'object' && ('$out' in last || '$merge' in last);
}

/** Whether the fail point fires for one more matching command (and counts it). */
function fires(fc: { mode: Mode }): boolean {
  switch (fc.mode.kind) {
    case 'alwaysOn':
      return true;
    case 'times':
      if (fc.mode.left <= 0) return false;
      fc.mode.left--;
      return true;
    case 'skip':
      if (fc.mode.left > 0) {
        fc.mode.left--;
        return false;
      }
      return true;
    case 'probability':
      return Math.random() < fc.mode.p;
  }
}

/** A reply with the fail point's write concern error added (the command itself ran). */
export function withWriteConcernError(reply: Document, writeConcernError: Document): Document {
  return { ...reply, writeConcernError };
}

function parseMode(mode: unknown): Mode | 'off' {
  if (mode === 'off') return 'off';
  if (mode === 'alwaysOn') return { kind: 'alwaysOn' };
  if (mode && typeof mode === 'object') {
    const m = mode as Document;
    const n = (v: unknown): number => {
      const x = Number(v);
      if (!Number.isInteger(x) || x < 0)
        throw new CommandError('BadValue', "'times' and 'skip' must be non-negative integers");
      return x;
    };
    if ('times' in m) return { kind: 'times', left: n(m.times) };
    if ('skip' in m) return { kind: 'skip', left: n(m.skip) };
    if ('activationProbability' in m) {
      const p = Number(m.activationProbability);
      if (!(p >= 0 && p <= 1)) throw new CommandError('BadValue', "'activationProbability' must be between 0 and 1");
      return { kind: 'probability', p };
    }
  }
  throw new CommandError(
    'BadValue',
    "'mode' must be 'off', 'alwaysOn', or a document with 'times', 'skip' or 'activationProbability'",
  );
}

function configureFailPoint(ctx: CommandContext): Document {
  const points = enabled.get(ctx.state);
  // Without test commands the command does not exist, as on a mongod started without enableTestCommands.
  if (!points) throw new CommandError('CommandNotFound', "no such command: 'configureFailPoint'");
  if (ctx.db !== 'admin')
    throw new CommandError('Unauthorized', 'configureFailPoint may only be run against the admin database.');
  const name = ctx.body.configureFailPoint;
  if (name !== 'failCommand' && name !== 'failGetMoreAfterCursorCheckout') {
    throw new CommandError(
      'BadValue',
      `Cannot find failPoint ${JSON.stringify(name)}: this engine has 'failCommand' and 'failGetMoreAfterCursorCheckout'`,
    );
  }
  const mode = parseMode(ctx.body.mode);
  const count = points.fired.get(name) ?? 0;
  points.fired.set(name, 0);
  if (name === 'failGetMoreAfterCursorCheckout') {
    if (mode === 'off') {
      points.failGetMore = undefined;
      return { count, ok: 1 };
    }
    const data = (ctx.body.data ?? {}) as Document;
    // mongod's default: InternalError.
    const code = data.errorCode === undefined ? 1 : Number(data.errorCode);
    if (!Number.isInteger(code)) throw new CommandError('BadValue', "'data.errorCode' must be an integer");
    points.failGetMore = {
      mode,
      code,
      ...(typeof data.appName === 'string' ? { appName: data.appName } : {}),
      ...(typeof data.namespace === 'string' ? { namespace: data.namespace } : {}),
    };
    return { count, ok: 1 };
  }
  if (mode === 'off') {
    points.failCommand = undefined;
    return { count, ok: 1 };
  }
  const data = (ctx.body.data ?? {}) as Document;
  if (
    typeof data !== 'object' ||
    !Array.isArray(data.failCommands) ||
    !data.failCommands.every((c) => typeof c === 'string')
  ) {
    throw new CommandError('BadValue', "failCommand needs 'data.failCommands', an array of command names");
  }
  points.failCommand = {
    mode,
    commands: new Set(data.failCommands as string[]),
    data,
    ...(typeof data.appName === 'string' ? { appName: data.appName } : {}),
    ...(typeof data.namespace === 'string' ? { namespace: data.namespace } : {}),
  };
  return { count, ok: 1 };
}

export const failPointCommands: Record<string, Handler> = { configureFailPoint };
