// The engine's errors, at the bottom of the package so every layer may throw them: command errors with
// MongoDB's numeric codes and code names, and the storage errors a write can meet (a duplicate key, a key
// too long to index). commands/error-replies.ts turns any of them into a reply's error fields.
import { EJSON, type Document } from 'bson';

const Code = {
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
  IndexBuildAborted: [276, 'IndexBuildAborted'],
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
  Location16675: [16675, 'Location16675'],
  Location17261: [17261, 'Location17261'],
  Location17262: [17262, 'Location17262'],
  Location17313: [17313, 'Location17313'],
  Location40218: [40218, 'Location40218'],
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

/** An index key longer than LMDB allows (MongoDB before 4.2 refused these the same way, code 17280). */
export class KeyTooLongError extends Error {
  readonly code = 17280;
  readonly codeName = 'KeyTooLong';
  constructor(ns: string, index: string, bytes: number, max: number) {
    super(`key too large to index, failing: ${ns} index: ${index} (${bytes} bytes, at most ${max})`);
  }
}

/** A unique index refused a key: MongoDB's E11000 (code 11000, keyPattern, keyValue, the gist of its errmsg). */
/** Renders a value roughly the way the server prints it in E11000 messages. */
function show(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  const bt = (v as { _bsontype?: string })._bsontype;
  if (bt === 'ObjectId') return `ObjectId('${String(v)}')`;
  try {
    return EJSON.stringify(v as Document, { relaxed: true });
  } catch {
    return String(v);
  }
}

export class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(
    readonly ns: string,
    readonly indexName: string,
    readonly keyPattern: Document,
    readonly keyValue: Document,
  ) {
    const kv = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${show(v)}`)
      .join(', ');
    super(`E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: { ${kv} }`);
  }
}
