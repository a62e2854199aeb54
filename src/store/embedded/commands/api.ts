// What mongod checks of every command before running it: the versioned API parameters (apiVersion,
// apiStrict, apiDeprecationErrors) and the read concern levels a standalone server serves. The command
// lists are MongoDB's Stable API V1 (https://www.mongodb.com/docs/manual/reference/stable-api-reference/)
// restricted to the commands this engine has.
import type { Document } from 'bson';
import { CommandError } from './errors.js';

/** Commands in API Version 1 (Stable API). */
const API_V1 = new Set([
  'abortTransaction', 'aggregate', 'authenticate', 'bulkWrite', 'collMod', 'commitTransaction', 'count', 'create',
  'createIndexes', 'delete', 'drop', 'dropDatabase', 'dropIndexes', 'endSessions', 'explain', 'find', 'findAndModify',
  'getMore', 'hello', 'insert', 'killCursors', 'listCollections', 'listDatabases', 'listIndexes', 'ping',
  'refreshSessions', 'saslContinue', 'saslStart', 'update',
]);

/** Aggregation stages that API Version 1 leaves out: refused under apiStrict. */
const NOT_IN_V1_STAGES = new Set([
  '$currentOp', '$indexStats', '$listCatalog', '$listLocalSessions', '$listSessions', '$listSearchIndexes',
  '$planCacheStats', '$querySettings', '$search', '$searchMeta', '$shardedDataDistribution',
]);

const STRICT_HELP = 'Information on supported commands and migrations in API Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api.';

/** Refuses a command whose API parameters mongod would refuse (codes 322/323 and InvalidOptions). */
export function checkApiParameters(name: string, body: Document): void {
  const { apiVersion, apiStrict, apiDeprecationErrors } = body;
  if (apiStrict !== undefined && typeof apiStrict !== 'boolean') throw new CommandError('TypeMismatch', `BSON field 'apiStrict' is the wrong type '${typeof apiStrict}', expected type 'bool'`);
  if (apiDeprecationErrors !== undefined && typeof apiDeprecationErrors !== 'boolean') throw new CommandError('TypeMismatch', `BSON field 'apiDeprecationErrors' is the wrong type '${typeof apiDeprecationErrors}', expected type 'bool'`);
  if (apiVersion === undefined) {
    if (apiStrict !== undefined) throw new CommandError('InvalidOptions', 'Provided apiStrict without passing apiVersion');
    if (apiDeprecationErrors !== undefined) throw new CommandError('InvalidOptions', 'Provided apiDeprecationErrors without passing apiVersion');
    return;
  }
  if (typeof apiVersion !== 'string') throw new CommandError('TypeMismatch', `BSON field 'apiVersion' is the wrong type '${typeof apiVersion}', expected type 'string'`);
  if (apiVersion !== '1') throw new CommandError('APIVersionError', 'API version must be "1"');
  if (apiStrict !== true) return;
  if (!API_V1.has(name)) throw new CommandError('APIStrictError', `Provided apiStrict:true, but the command ${name} is not in API Version 1. ${STRICT_HELP}`);
  if (name === 'aggregate' && Array.isArray(body.pipeline)) {
    for (const stage of body.pipeline as unknown[]) {
      const op = stage && typeof stage === 'object' ? Object.keys(stage)[0] : undefined;
      if (op && NOT_IN_V1_STAGES.has(op)) throw new CommandError('APIStrictError', `${op} is not allowed with 'apiStrict: true' in API Version 1`);
    }
  }
}

/** Read concern levels: snapshot and linearizable reads need a replica set, as on a standalone mongod. */
export function checkReadConcern(body: Document): void {
  const rc: unknown = body.readConcern;
  if (rc === undefined) return;
  if (!rc || typeof rc !== 'object' || Array.isArray(rc)) throw new CommandError('TypeMismatch', "BSON field 'readConcern' is the wrong type, expected type 'object'");
  const level: unknown = (rc as Document).level;
  if (level === undefined) return;
  if (level === 'snapshot' || level === 'linearizable') throw new CommandError('NotAReplicaSet', `node needs to be a replica set member to use readConcern: ${level}`);
  if (level !== 'local' && level !== 'majority' && level !== 'available') {
    throw new CommandError('FailedToParse', `Read concern level '${String(level)}' is not one of 'local', 'majority', 'linearizable', 'available' or 'snapshot'`);
  }
}
