// The unified-format change-stream spec tests (mongodb/specifications, source/change-streams/tests/unified,
// vendored unchanged in test/change-streams-spec/change-streams; see its README) against a private embedded engine: a
// client-wide watch sees every database, so no other test file may write to this engine meanwhile. They run
// through the engine's unified-format runner (test/spec/unified: results, errors, expectEvents,
// outcome), to which this file adds the change-stream operations. The engine is a standalone that answers
// change streams: for these files it stands in for a replica set. Every test that does not run, and every
// test that runs and fails today, is listed with its reason in test/change-streams-spec/skipped.json and
// expected-failures.json; the run fails if the skips differ from that list, or if a listed failure passes.
// To refresh both lists after a change: SPEC_RECORD_LISTS=1 npm test -- test/spec-change-streams (writes
// them, with each new failure's message as its reason: replace it with why).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeStream, ChangeStreamOptions, Document } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';
import type { Doc } from './spec/unified/match.js';
import { addedOperations } from './spec/unified/operations.js';
import { parseFile, runTest, SERVER, skipReason, type UnifiedFile, type UnifiedTest } from './spec/unified/runner.js';

const SPEC_DIR = join(import.meta.dirname, 'change-streams-spec');
const FILES_DIR = join(SPEC_DIR, 'change-streams');
type Listing = Record<string, Record<string, string>>;
const skipped = JSON.parse(readFileSync(join(SPEC_DIR, 'skipped.json'), 'utf8')) as Listing;
const expectedFailures = JSON.parse(readFileSync(join(SPEC_DIR, 'expected-failures.json'), 'utf8')) as Listing;

SERVER.topology = 'replicaset';

/** Operations of these files the engine or this runner does not have, with why. */
const NOT_RUN: Record<string, string> = {
  rename: 'the engine has no renameCollection',
};

function reason(file: UnifiedFile, test: UnifiedTest): string | undefined {
  const why = skipReason(file, test);
  if (why) return why;
  const op = test.operations.find((o) => NOT_RUN[o.name]);
  return op && `${op.name}: ${NOT_RUN[op.name]}`;
}

const isChangeStream = (v: unknown): v is ChangeStream =>
  !!v && typeof (v as ChangeStream).tryNext === 'function' && 'resumeToken' in (v as object);
type Watchable = { watch(pipeline: Document[], options: ChangeStreamOptions): ChangeStream };

/** A collection, a database, or a client entity's MongoClient. */
const watchable = (target: unknown): Watchable | undefined => {
  const canWatch = (v: unknown): v is Watchable => !!v && typeof (v as Watchable).watch === 'function';
  if (canWatch(target)) return target;
  const client = (target as { client?: unknown } | undefined)?.client;
  return canWatch(client) ? client : undefined;
};

addedOperations.push((name, target, a) => {
  const watched = watchable(target);
  if (name === 'createChangeStream' && watched) return createChangeStream(watched, a);
  if (!isChangeStream(target)) return undefined;
  if (name === 'iterateUntilDocumentOrError') return target.next();
  if (name === 'iterateOnce') return target.tryNext();
  if (name === 'close') return target.close();
  return undefined;
});

/** The format's createChangeStream runs the aggregate at once (the driver would wait for the first read). */
async function createChangeStream(target: Watchable, a: Doc): Promise<ChangeStream> {
  const { pipeline, ...options } = a;
  // A short server-side wait keeps iterateOnce (one getMore) quick; iterateUntilDocumentOrError repeats it.
  const stream = target.watch((pipeline as Document[] | undefined) ?? [], { maxAwaitTimeMS: 200, ...options });
  await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
  return stream;
}

const record = process.env.SPEC_RECORD_LISTS === '1';
const recorded = { skipped: {} as Listing, failures: {} as Listing };

let engine: RunningEngine;
beforeAll(async () => {
  engine = await startEngine({ port: 0, testCommands: true });
});
afterAll(async () => {
  await engine?.close();
  if (!record) return;
  for (const [list, listing] of Object.entries(recorded)) {
    const sorted = Object.fromEntries(
      Object.entries(listing)
        .filter(([, tests]) => Object.keys(tests).length)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    writeFileSync(
      join(SPEC_DIR, `${list === 'skipped' ? 'skipped' : 'expected-failures'}.json`),
      `${JSON.stringify(sorted, null, 2)}\n`,
    );
  }
});

for (const name of readdirSync(FILES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const file = parseFile(readFileSync(join(FILES_DIR, name), 'utf8'));
  describe(name, () => {
    const skips: Record<string, string> = (recorded.skipped[name] = {});
    const failures: Record<string, string> = (recorded.failures[name] = {});
    for (const test of file.tests) {
      const why = reason(file, test);
      if (why) {
        skips[test.description] = why;
        it.skip(`${test.description} [${why}]`, () => undefined);
        continue;
      }
      const expectedFailure = expectedFailures[name]?.[test.description];
      it(
        expectedFailure ? `${test.description} [expected failure: ${expectedFailure}]` : test.description,
        async () => {
          let error: unknown;
          try {
            await runTest(engine.uri, file, test);
          } catch (e) {
            error = e;
          }
          if (record) {
            if (error)
              failures[test.description] =
                expectedFailure ?? (error instanceof Error ? error.message : String(error)).slice(0, 300);
            return;
          }
          if (expectedFailure && !error)
            throw new Error('listed in expected-failures.json but now passes: remove it from the list');
          if (!expectedFailure && error) throw error;
        },
      );
    }
    it('skips exactly what skipped.json lists for this file', () => {
      if (!record) expect(skips).toEqual(skipped[name] ?? {});
    });
  });
}
