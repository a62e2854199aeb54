// Runs one unified-format test file: runOnRequirements, initialData, entities, operations (results,
// errors, saved entities), expectEvents and outcome. What a standalone server cannot have is decided
// here, before a test runs (see skipReason), so a skip always carries its reason.
import { EJSON } from 'bson';
import { MongoClient, type Document } from 'mongodb';
import { Entities, Unsupported } from './entities.js';
import { checkError } from './expect-error.js';
import { match, MatchError, type Doc } from './match.js';
import { execute, ITERABLE, type Operation } from './operations.js';
import { testRunnerOp } from './test-runner-ops.js';
import { checkEvents, type ExpectedEvents } from './events.js';

export interface UnifiedFile {
  description: string;
  schemaVersion: string;
  runOnRequirements?: Doc[];
  createEntities?: Doc[];
  initialData?: { collectionName: string; databaseName: string; documents: Doc[]; createOptions?: Doc }[];
  tests: UnifiedTest[];
}

export interface UnifiedTest {
  description: string;
  runOnRequirements?: Doc[];
  skipReason?: string;
  operations: (Operation & {
    expectError?: Doc;
    expectResult?: unknown;
    saveResultAsEntity?: string;
    ignoreResultAndError?: boolean;
  })[];
  expectEvents?: ExpectedEvents[];
  outcome?: { collectionName: string; databaseName: string; documents: Doc[] }[];
}

/** What the engine reports: a standalone server of this version. */
export const SERVER = { version: [8, 0, 0], topology: 'single' };
const SUPPORTED_SCHEMA = [1, 24];

function version(s: string): number[] {
  return s.split('.').map(Number).concat([0, 0, 0]).slice(0, 3);
}

function cmp(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Why a runOnRequirement does not hold for the engine, or undefined if it does. */
function unmet(r: Doc): string | undefined {
  if (typeof r.minServerVersion === 'string' && cmp(SERVER.version, version(r.minServerVersion)) < 0)
    return `needs server >= ${r.minServerVersion}`;
  if (typeof r.maxServerVersion === 'string' && cmp(SERVER.version, version(r.maxServerVersion)) > 0)
    return `needs server <= ${r.maxServerVersion}`;
  if (Array.isArray(r.topologies) && !r.topologies.includes(SERVER.topology))
    return `needs topology ${r.topologies.join('/')}`;
  if (r.serverless === 'require') return 'needs serverless';
  if (r.auth === true) return 'needs authentication';
  if (r.csfle === true) return 'needs client-side encryption';
  if (r.serverParameters) return `needs server parameters ${JSON.stringify(r.serverParameters)}`;
  return undefined;
}

function requirements(list: Doc[] | undefined): string | undefined {
  if (!list || list.length === 0) return undefined;
  const reasons = list.map(unmet);
  return reasons.every((x) => x !== undefined)
    ? `runOnRequirements: ${reasons.join(' or ')} (the engine is a standalone ${SERVER.version.join('.')})`
    : undefined;
}

/** Operations the format lists but the Node.js driver 7 does not have (the specifications let a driver leave them out). */
const NOT_IN_DRIVER: Record<string, string> = {
  listIndexNames: 'the Node.js driver has no listIndexNames (the index management spec lets a driver leave it out)',
  listDatabaseObjects: 'the Node.js driver has no listDatabaseObjects (listDatabases is its only form)',
  listCollectionObjects: 'the Node.js driver has no listCollectionObjects (listCollections is its only form)',
  mapReduce: 'the Node.js driver 7 has no mapReduce helper, and the engine runs no JavaScript',
  deleteByName: 'the Node.js driver 7 has no GridFSBucket.deleteByName (the GridFS spec lets a driver leave it out)',
  renameByName: 'the Node.js driver 7 has no GridFSBucket.renameByName (the GridFS spec lets a driver leave it out)',
};

/** The reason a test cannot run against a standalone engine (or this runner), or undefined. */
export function skipReason(file: UnifiedFile, test: UnifiedTest): string | undefined {
  const r = requirements(file.runOnRequirements) ?? requirements(test.runOnRequirements);
  if (r) return r;
  if (test.skipReason) return `the file skips it: ${test.skipReason}`;
  for (const op of test.operations) {
    if (op.object === 'testRunner') {
      if (op.name === 'targetedFailPoint')
        return 'targetedFailPoint pins a fail point to a mongos (sharded clusters only)';
      continue;
    }
    if (NOT_IN_DRIVER[op.name]) return NOT_IN_DRIVER[op.name];
    if (['startTransaction', 'commitTransaction', 'abortTransaction', 'withTransaction'].includes(op.name))
      return 'transactions need a replica set';
    if (op.arguments && 'timeoutMS' in op.arguments)
      return 'client-side timeoutMS (CSOT) is a driver feature, not engine behaviour';
  }
  for (const e of test.expectEvents ?? [])
    if (e.eventType && e.eventType !== 'command')
      return `${e.eventType} events are driver behaviour, not engine behaviour`;
  for (const e of file.createEntities ?? []) {
    const kind = Object.keys(e)[0]!;
    if (!['client', 'database', 'collection', 'session', 'bucket'].includes(kind))
      return `${kind} entities are outside this runner's scope`;
    const spec = e[kind] as Doc;
    if (kind === 'client' && ((spec.observeEvents as string[] | undefined) ?? []).some((x) => !x.startsWith('command')))
      return 'CMAP/SDAM events are driver behaviour, not engine behaviour';
  }
  return undefined;
}

/** Rewrites database names (whole strings, or a namespace's leading part) so each test file has its own. */
export function renameDatabases<T>(value: T, names: Map<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (names.has(v)) return names.get(v);
      const dot = v.indexOf('.');
      if (dot > 0 && names.has(v.slice(0, dot))) return names.get(v.slice(0, dot)) + v.slice(dot);
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Parses a unified test file (relaxed extended JSON). */
export function parseFile(text: string): UnifiedFile {
  return EJSON.parse(text, { relaxed: true }) as UnifiedFile;
}

async function seed(internal: MongoClient, file: UnifiedFile): Promise<void> {
  for (const data of file.initialData ?? []) {
    const db = internal.db(data.databaseName);
    await db.dropCollection(data.collectionName, { writeConcern: { w: 'majority' } }).catch(() => undefined);
    if (data.createOptions || data.documents.length === 0)
      await db.createCollection(data.collectionName, {
        ...(data.createOptions ?? {}),
        writeConcern: { w: 'majority' },
      });
    if (data.documents.length)
      await db
        .collection(data.collectionName)
        .insertMany(data.documents as Document[], { writeConcern: { w: 'majority' } });
  }
}

async function checkOutcome(internal: MongoClient, test: UnifiedTest, ents: Entities): Promise<void> {
  for (const o of test.outcome ?? []) {
    const docs = await internal
      .db(o.databaseName)
      .collection(o.collectionName)
      .find({}, { sort: { _id: 1 }, readConcern: { level: 'local' } })
      .toArray();
    match(o.documents, docs, ents, false, `outcome ${o.collectionName}`);
  }
}

/** Whether a test sets fail points: it then needs an engine of its own (a fail point is server-wide). */
export function usesFailPoints(test: UnifiedTest): boolean {
  return test.operations.some((op) => op.object === 'testRunner' && op.name === 'failPoint');
}

function failPointNames(test: UnifiedTest): Set<string> {
  const set = test.operations.filter((op) => op.object === 'testRunner' && op.name === 'failPoint');
  return new Set(set.map((op) => String((op.arguments?.failPoint as Doc | undefined)?.configureFailPoint)));
}

/** Runs one test (already known not to be skipped); throws on the first assertion that fails. */
export async function runTest(uri: string, file: UnifiedFile, test: UnifiedTest): Promise<void> {
  const [major, minor] = file.schemaVersion.split('.').map(Number);
  if (major !== SUPPORTED_SCHEMA[0] || minor! > SUPPORTED_SCHEMA[1]!)
    throw new MatchError(`schemaVersion ${file.schemaVersion} is not supported (1.0 to 1.${SUPPORTED_SCHEMA[1]})`);
  const internal = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  // The internal client closes however the test ends: left open after a failing test, its monitor and
  // pool timers keep the Jest process alive.
  try {
    await internal.connect();
    await runWith(internal, uri, file, test);
  } finally {
    await internal.close();
  }
}

async function runWith(internal: MongoClient, uri: string, file: UnifiedFile, test: UnifiedTest): Promise<void> {
  const ents = new Entities(uri, (n) => n);
  try {
    await seed(internal, file);
    await ents.create(file.createEntities ?? []);
    for (const [i, op] of test.operations.entries()) {
      const where = `operation ${i} (${op.name})`;
      let result: unknown;
      let error: unknown;
      let failed = false;
      try {
        result = op.object === 'testRunner' ? await testRunnerOp(op, ents, internal) : await execute(op, ents);
      } catch (e) {
        if (e instanceof Unsupported || e instanceof MatchError) throw e;
        failed = true;
        error = e;
      }
      if (op.ignoreResultAndError) continue;
      if (op.expectError) {
        if (!failed)
          throw new MatchError(`${where}: expected an error, got ${EJSON.stringify(result as Doc, { relaxed: true })}`);
        try {
          checkError(op.expectError, error, ents);
        } catch (e) {
          throw new MatchError(`${where}: ${(e as Error).message}`);
        }
        continue;
      }
      if (failed)
        throw new MatchError(
          `${where}: unexpected error ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        );
      if (op.expectResult !== undefined) {
        try {
          if (ITERABLE.has(op.name) && Array.isArray(op.expectResult)) {
            // Elements of an iterable result are root-level documents (extra fields allowed).
            const want = op.expectResult as unknown[];
            if (!Array.isArray(result) || result.length !== want.length)
              throw new MatchError(
                `expected ${want.length} documents, got ${EJSON.stringify(result as Doc, { relaxed: true })}`,
              );
            want.forEach((x, j) => match(x, (result as unknown[])[j], ents, true, `[${j}]`));
          } else match(op.expectResult, result, ents, true);
        } catch (e) {
          throw new MatchError(`${where}: ${(e as Error).message}`);
        }
      }
      if (op.saveResultAsEntity) ents.map.set(op.saveResultAsEntity, result);
    }
    checkEvents(test, ents);
  } finally {
    // A fail point outlives the test that set it unless turned off (the format's "disable after the test").
    for (const name of failPointNames(test))
      await internal.db('admin').command({ configureFailPoint: name, mode: 'off' });
    await ents.close();
  }
  await checkOutcome(internal, test, ents);
}
