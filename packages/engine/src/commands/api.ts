// What mongod checks of every command before running it: the versioned API parameters (apiVersion,
// apiStrict, apiDeprecationErrors) and the read concern levels a standalone server serves. The command
// lists are MongoDB's Stable API V1 (https://www.mongodb.com/docs/manual/reference/stable-api-reference/)
// restricted to the commands this engine has.
import type { Document } from 'bson';
import { CommandError } from '../errors.js';

/** Commands in API Version 1 (Stable API). */
const API_V1 = new Set([
  'abortTransaction',
  'aggregate',
  'authenticate',
  'bulkWrite',
  'collMod',
  'commitTransaction',
  'count',
  'create',
  'createIndexes',
  'delete',
  'drop',
  'dropDatabase',
  'dropIndexes',
  'endSessions',
  'explain',
  'find',
  'findAndModify',
  'getMore',
  'hello',
  'insert',
  'killCursors',
  'listCollections',
  'listDatabases',
  'listIndexes',
  'ping',
  'refreshSessions',
  'saslContinue',
  'saslStart',
  'update',
]);

/** Aggregation stages that API Version 1 leaves out: refused under apiStrict. */
const NOT_IN_V1_STAGES = new Set([
  '$currentOp',
  '$indexStats',
  '$listCatalog',
  '$listLocalSessions',
  '$listSessions',
  '$listSearchIndexes',
  '$planCacheStats',
  '$querySettings',
  '$search',
  '$searchMeta',
  '$shardedDataDistribution',
]);

const STRICT_HELP =
  'Information on supported commands and migrations in API Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api.';

/** Refuses a command whose API parameters mongod would refuse (codes 322/323 and InvalidOptions). */
export function checkApiParameters(name: string, body: Document): void {
  const { apiVersion, apiStrict, apiDeprecationErrors } = body;
  if (apiStrict !== undefined && typeof apiStrict !== 'boolean')
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'apiStrict' is the wrong type '${typeof apiStrict}', expected type 'bool'`,
    );
  if (apiDeprecationErrors !== undefined && typeof apiDeprecationErrors !== 'boolean')
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'apiDeprecationErrors' is the wrong type '${typeof apiDeprecationErrors}', expected type 'bool'`,
    );
  if (apiVersion === undefined) {
    if (apiStrict !== undefined)
      throw new CommandError('InvalidOptions', 'Provided apiStrict without passing apiVersion');
    if (apiDeprecationErrors !== undefined)
      throw new CommandError('InvalidOptions', 'Provided apiDeprecationErrors without passing apiVersion');
    return;
  }
  if (typeof apiVersion !== 'string')
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'apiVersion' is the wrong type '${typeof apiVersion}', expected type 'string'`,
    );
  if (apiVersion !== '1') throw new CommandError('APIVersionError', 'API version must be "1"');
  if (apiStrict !== true) return;
  const command = ALIASES[name] ?? name;
  if (!API_V1.has(command))
    throw new CommandError(
      'APIStrictError',
      `Provided apiStrict:true, but the command ${name} is not in API Version 1. ${STRICT_HELP}`,
    );
  if (command === 'aggregate' && Array.isArray(body.pipeline)) checkStages(body.pipeline as unknown[]);
}

/** Other spellings mongod accepts for commands of API Version 1. */
const ALIASES: Record<string, string> = { findandmodify: 'findAndModify' };

/** Refuses stages outside API Version 1, in sub-pipelines ($lookup, $unionWith, $facet) too. */
function checkStages(pipeline: unknown[]): void {
  for (const stage of pipeline) {
    if (!stage || typeof stage !== 'object') continue;
    const [op, spec] = Object.entries(stage)[0] ?? [];
    if (!op) continue;
    if (NOT_IN_V1_STAGES.has(op))
      throw new CommandError('APIStrictError', `${op} is not allowed with 'apiStrict: true' in API Version 1`);
    // $collStats is in API Version 1 only as {count: {}}.
    if (op === '$collStats' && spec && typeof spec === 'object' && Object.keys(spec).some((k) => k !== 'count')) {
      throw new CommandError(
        'APIStrictError',
        `$collStats with anything but 'count' is not allowed with 'apiStrict: true' in API Version 1`,
      );
    }
    const sub = spec as { pipeline?: unknown } | undefined;
    if ((op === '$lookup' || op === '$unionWith') && Array.isArray(sub?.pipeline)) checkStages(sub.pipeline);
    if (op === '$facet' && spec && typeof spec === 'object')
      for (const p of Object.values(spec)) if (Array.isArray(p)) checkStages(p);
  }
}

/** Read concern levels: snapshot and linearizable reads need a replica set, as on a standalone mongod. */
export function checkReadConcern(body: Document): void {
  const rc: unknown = body.readConcern;
  if (rc === undefined) return;
  if (!rc || typeof rc !== 'object' || Array.isArray(rc))
    throw new CommandError('TypeMismatch', "BSON field 'readConcern' is the wrong type, expected type 'object'");
  const level: unknown = (rc as Document).level;
  if (level === undefined) return;
  if (level === 'snapshot' || level === 'linearizable')
    throw new CommandError('NotAReplicaSet', `node needs to be a replica set member to use readConcern: ${level}`);
  if (level !== 'local' && level !== 'majority' && level !== 'available') {
    throw new CommandError(
      'FailedToParse',
      `Read concern level '${String(level)}' is not one of 'local', 'majority', 'linearizable', 'available' or 'snapshot'`,
    );
  }
}
