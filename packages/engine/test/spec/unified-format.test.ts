// The unified test format's own samples, to keep the runner honest: valid-pass files must pass, and every
// test of a valid-fail file must make the runner fail.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testMongoUri } from '../helpers/db.js';
import { specSuite } from './unified/suite.js';
import { parseFile, runTest, skipReason } from './unified/runner.js';

specSuite('unified-test-format/valid-pass');

const failDir = join(import.meta.dirname, 'unified-test-format', 'valid-fail');
describe('unified-test-format/valid-fail', () => {
  for (const name of readdirSync(failDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = parseFile(readFileSync(join(failDir, name), 'utf8'));
    for (const test of file.tests) {
      it(`${name}: ${test.description} is rejected`, async () => {
        // A skip is not a rejection: these samples are all within the runner's scope.
        expect(skipReason(file, test)).toBeUndefined();
        let rejected = false;
        await runTest(testMongoUri(), file, test).catch(() => (rejected = true));
        expect(rejected).toBe(true);
      });
    }
  }
});
