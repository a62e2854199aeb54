// Wrong answers of the load runs kept whole for a look afterwards, next to the answer expected.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './log.js';
import { projectRoot } from './procs.js';

/** The first wrong answer of a run, whole, next to the expected one (dist/bench-failures/). */
let expectedBodies: Record<string, string> = {};
export function keepWrongAnswer(name: string, body: string | undefined): void {
  if (body === undefined) return;
  const dir = join(projectRoot, 'dist/bench-failures');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.got.txt`), body);
  const expected = Object.values(expectedBodies).find(
    (e) => Math.abs(e.length - body.length) < Math.max(64, e.length / 10),
  );
  if (expected) writeFileSync(join(dir, `${name}.expected.txt`), expected);
  log(`    (wrong answer kept in dist/bench-failures/${name}.got.txt)`);
}

/** The answers a wrong one is set beside (the closest in length). */
export function setExpectedBodies(bodies: Record<string, string>): void {
  expectedBodies = bodies;
}
