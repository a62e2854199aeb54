// Jest wiring for a directory of vendored unified-format files: one describe per file, one test per
// spec test. Skips must match skipped.json (test -> reason) and failures expected-failures.json; a listed
// failure that starts passing fails the run so the list stays honest. SPEC_RECORD=<dir> writes each
// file's outcome there instead of failing (update-lists.mjs turns that into the two lists).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testMongoUri, uniqueDbName } from '../../helpers/db.js';
import { MongoClient } from 'mongodb';
import { startEngine, type RunningEngine } from '../../../src/index.js';
import { parseFile, renameDatabases, runTest, skipReason, usesFailPoints, type UnifiedFile } from './runner.js';

const SPEC_DIR = join(import.meta.dirname, '..');
type Listing = Record<string, Record<string, string>>;
const load = (name: string): Listing => JSON.parse(readFileSync(join(SPEC_DIR, name), 'utf8')) as Listing;

function databaseNames(file: UnifiedFile): Map<string, string> {
  const names = new Map<string, string>();
  const add = (n: unknown): void => {
    if (typeof n === 'string' && !names.has(n) && n !== 'admin')
      names.set(n, uniqueDbName(n.replace(/[^A-Za-z0-9]/g, '').slice(0, 20)));
  };
  for (const e of file.createEntities ?? []) add((e.database as { databaseName?: string } | undefined)?.databaseName);
  for (const d of file.initialData ?? []) add(d.databaseName);
  return names;
}

/** Registers the tests of `group` (a directory under test/spec), optionally only some files. */
export function specSuite(group: string, only?: (file: string) => boolean): void {
  const skipped = load('skipped.json');
  const expectedFailures = load('expected-failures.json');
  const record = process.env.SPEC_RECORD;
  const files = readdirSync(join(SPEC_DIR, group))
    .filter((f) => f.endsWith('.json') && (!only || only(f)))
    .sort();
  for (const name of files) {
    const key = `${group}/${name}`;
    const raw = parseFile(readFileSync(join(SPEC_DIR, group, name), 'utf8'));
    const names = databaseNames(raw);
    const file = renameDatabases(raw, names);
    describe(key, () => {
      const outcome: Record<string, string> = {};
      const skips: Record<string, string> = {};
      // Fail points are server-wide: a file that sets them runs on an engine of its own, with mongod's test
      // commands on, so that they never fail another test file's commands (on MONGODB_URI as well).
      let own: RunningEngine | undefined;
      const failPoints = file.tests.some((t) => !skipReason(file, t) && usesFailPoints(t));
      beforeAll(async () => {
        if (failPoints) own = await startEngine({ host: '127.0.0.1', port: 0, testCommands: true });
      });
      const uri = (): string => own?.uri ?? testMongoUri();
      afterAll(async () => {
        await own?.close();
        const client = new MongoClient(testMongoUri());
        for (const db of names.values())
          await client
            .db(db)
            .dropDatabase()
            .catch(() => undefined);
        await client.close();
        if (record) {
          mkdirSync(record, { recursive: true });
          writeFileSync(
            join(record, `${key.replace(/\//g, '__')}.json`),
            JSON.stringify({ file: key, skips, outcome }, null, 1),
          );
        }
      });
      for (const test of file.tests) {
        const why = skipReason(file, test);
        if (why) {
          skips[test.description] = why;
          it.skip(`${test.description} [${why}]`, () => undefined);
          continue;
        }
        const expectedFailure = expectedFailures[key]?.[test.description];
        it(
          expectedFailure ? `${test.description} [expected failure: ${expectedFailure}]` : test.description,
          async () => {
            let error: unknown;
            try {
              await runTest(uri(), file, test);
            } catch (e) {
              error = e;
            }
            outcome[test.description] = error
              ? `fail: ${error instanceof Error ? error.message : String(error)}`
              : 'pass';
            if (record) return;
            if (expectedFailure && !error)
              throw new Error(`listed in expected-failures.json but now passes: remove it from the list`);
            if (!expectedFailure && error) throw error;
          },
        );
      }
      it('skips exactly what skipped.json lists for this file', () => {
        if (!record) expect(skips).toEqual(skipped[key] ?? {});
      });
    });
  }
}
