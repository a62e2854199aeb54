// Command errors with MongoDB's numeric codes and code names, and their conversion to reply documents.
import type { Document } from 'bson';
import { MingoError } from 'mingo/util';
import { DuplicateKeyError } from '../storage/dupkey.js';
import { KeyTooLongError } from '../storage/indexes.js';

export const Code = {
  InternalError: [1, 'InternalError'],
  BadValue: [2, 'BadValue'],
  FailedToParse: [9, 'FailedToParse'],
  Unauthorized: [13, 'Unauthorized'],
  TypeMismatch: [14, 'TypeMismatch'],
  InvalidBSON: [22, 'InvalidBSON'],
  PathNotViable: [28, 'PathNotViable'],
  ConflictingUpdateOperators: [40, 'ConflictingUpdateOperators'],
  Location31254: [31254, 'Location31254'],
  Location31253: [31253, 'Location31253'],
  IllegalOperation: [20, 'IllegalOperation'],
  NamespaceNotFound: [26, 'NamespaceNotFound'],
  IndexNotFound: [27, 'IndexNotFound'],
  CursorNotFound: [43, 'CursorNotFound'],
  NamespaceExists: [48, 'NamespaceExists'],
  CommandNotFound: [59, 'CommandNotFound'],
  ImmutableField: [66, 'ImmutableField'],
  DollarPrefixedFieldName: [52, 'DollarPrefixedFieldName'],
  CannotCreateIndex: [67, 'CannotCreateIndex'],
  InvalidOptions: [72, 'InvalidOptions'],
  InvalidNamespace: [73, 'InvalidNamespace'],
  IndexOptionsConflict: [85, 'IndexOptionsConflict'],
  IndexKeySpecsConflict: [86, 'IndexKeySpecsConflict'],
  CommandNotSupported: [115, 'CommandNotSupported'],
  NotAReplicaSet: [123, 'NotAReplicaSet'],
  IllegalOpMsgFlag: [223, 'IllegalOpMsgFlag'],
  APIVersionError: [322, 'APIVersionError'],
  APIStrictError: [323, 'APIStrictError'],
  APIDeprecationError: [324, 'APIDeprecationError'],
  DocumentValidationFailure: [121, 'DocumentValidationFailure'],
  Location40324: [40324, 'Location40324'],
  Location40414: [40414, 'Location40414'],
  Location40415: [40415, 'Location40415'],
  InvalidResumeToken: [260, 'InvalidResumeToken'],
  ChangeStreamFatalError: [280, 'ChangeStreamFatalError'],
  ChangeStreamHistoryLost: [286, 'ChangeStreamHistoryLost'],
  CommandNotSupportedOnView: [166, 'CommandNotSupportedOnView'],
  Location51091: [51091, 'Location51091'],
  Location40601: [40601, 'Location40601'],
  Location40602: [40602, 'Location40602'],
  Location5858203: [5858203, 'Location5858203'],
  Location51132: [51132, 'Location51132'],
  Location13113: [13113, 'Location13113'],
  Location40430: [40430, 'Location40430'],
  Location40431: [40431, 'Location40431'],
  Location40432: [40432, 'Location40432'],
  Location40587: [40587, 'Location40587'],
  DuplicateKey: [11000, 'DuplicateKey'],
  // Codes the fail points are given by drivers' and MongoDB's specification tests (commands/failpoints.ts).
  HostUnreachable: [6, 'HostUnreachable'],
  HostNotFound: [7, 'HostNotFound'],
  UserNotFound: [11, 'UserNotFound'],
  MaxTimeMSExpired: [50, 'MaxTimeMSExpired'],
  StaleShardVersion: [63, 'StaleShardVersion'],
  WriteConcernFailed: [64, 'WriteConcernFailed'],
  NetworkTimeout: [89, 'NetworkTimeout'],
  ShutdownInProgress: [91, 'ShutdownInProgress'],
  UnsatisfiableWriteConcern: [100, 'UnsatisfiableWriteConcern'],
  WriteConflict: [112, 'WriteConflict'],
  FailedToSatisfyReadPreference: [133, 'FailedToSatisfyReadPreference'],
  ReadConcernMajorityNotAvailableYet: [134, 'ReadConcernMajorityNotAvailableYet'],
  StaleEpoch: [150, 'StaleEpoch'],
  PrimarySteppedDown: [189, 'PrimarySteppedDown'],
  RetryChangeStream: [234, 'RetryChangeStream'],
  ExceededTimeLimit: [262, 'ExceededTimeLimit'],
  SocketException: [9001, 'SocketException'],
  NotWritablePrimary: [10107, 'NotWritablePrimary'],
  InterruptedAtShutdown: [11600, 'InterruptedAtShutdown'],
  InterruptedDueToReplStateChange: [11602, 'InterruptedDueToReplStateChange'],
  StaleConfig: [13388, 'StaleConfig'],
  NotPrimaryNoSecondaryOk: [13435, 'NotPrimaryNoSecondaryOk'],
  NotPrimaryOrSecondary: [13436, 'NotPrimaryOrSecondary'],
  InvalidPipelineOperator: [168, 'InvalidPipelineOperator'],
  CannotConvertIndexToUnique: [359, 'CannotConvertIndexToUnique'],
} as const satisfies Record<string, readonly [number, string]>;

export type CodeName = keyof typeof Code;

const NAMES = new Map<number, string>(Object.values(Code).map(([n, name]) => [n, name]));

/** MongoDB's name for an error code (Location<code> for the numbered assertion sites). */
export function codeNameOf(code: number): string {
  return NAMES.get(code) ?? `Location${code}`;
}

export class CommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  constructor(
    name: CodeName,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
    [this.code, this.codeName] = Code[name];
  }
}

/** Any thrown value as the fields MongoDB puts in an error reply or a writeErrors entry. */
export function errorFields(e: unknown): { code: number; codeName: string; errmsg: string } & Document {
  if (e instanceof CommandError) return { errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
  if (e instanceof DuplicateKeyError) {
    return { errmsg: e.message, code: 11000, codeName: 'DuplicateKey', keyPattern: e.keyPattern, keyValue: e.keyValue };
  }
  if (e instanceof KeyTooLongError) return { errmsg: e.message, code: e.code, codeName: e.codeName };
  const msg = e instanceof Error ? e.message : String(e);
  // A $regex string JavaScript cannot compile (MongoDB's PCRE would refuse it too).
  if (e instanceof SyntaxError && /regular expression/i.test(msg)) {
    return { errmsg: `Regular expression is invalid: ${msg.replace(/^Invalid regular expression: /, '')}`, code: 51091, codeName: 'Location51091' };
  }
  if (/^Use of undefined variable/.test(msg)) return { errmsg: msg, code: 17276, codeName: 'Location17276' };
  // mingo reports invalid operators/arguments as MingoError; MongoDB calls these BadValue.
  if (e instanceof MingoError) return { errmsg: msg, code: 2, codeName: 'BadValue' };
  return { errmsg: msg, code: 1, codeName: 'InternalError' };
}

export function errorReply(e: unknown): Document {
  return { ok: 0, ...errorFields(e) };
}

/** A writeErrors entry: { index, code, errmsg, ... } (no codeName, as the server sends). */
export function writeError(index: number, e: unknown): Document {
  const { codeName: _ignored, ...rest } = errorFields(e);
  return { index, ...rest };
}
