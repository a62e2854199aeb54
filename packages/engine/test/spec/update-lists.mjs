// Reads the per-file outcomes a `SPEC_RECORD=<dir> npm test -- test/spec` run wrote and prints
// the pass rate and per-file table; with --write it rewrites skipped.json and adds newly failing tests
// to expected-failures.json (with the failure message as a placeholder reason to be replaced by why).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, flag] = process.argv.slice(2);
const here = import.meta.dirname;
const skipped = {};
const expected = JSON.parse(readFileSync(join(here, 'expected-failures.json'), 'utf8'));
const rows = [];
let pass = 0;
let fail = 0;
let skip = 0;
for (const f of readdirSync(dir).sort()) {
  const { file, skips, outcome } = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  if (Object.keys(skips).length) skipped[file] = skips;
  const failing = Object.entries(outcome).filter(([, v]) => v !== 'pass');
  const p = Object.keys(outcome).length - failing.length;
  pass += p;
  fail += failing.length;
  skip += Object.keys(skips).length;
  rows.push(`| ${file} | ${p} | ${failing.length} | ${Object.keys(skips).length} |`);
  const kept = {};
  for (const [t, v] of failing) kept[t] = expected[file]?.[t] ?? v.slice(6, 200);
  if (Object.keys(kept).length) expected[file] = kept;
  else delete expected[file];
}
console.log(
  `pass ${pass}, fail ${fail}, skip ${skip}: ${((100 * pass) / (pass + fail)).toFixed(1)}% of the tests run pass`,
);
if (flag === '--table') console.log(['| file | pass | fail | skip |', '|---|---|---|---|', ...rows].join('\n'));
if (flag === '--fails')
  for (const [f, t] of Object.entries(expected))
    for (const [d, r] of Object.entries(t)) console.log(`${f} :: ${d} :: ${r}`);
if (flag === '--write') {
  const sorted = (o) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  writeFileSync(join(here, 'skipped.json'), JSON.stringify(sorted(skipped), null, 2) + '\n');
  writeFileSync(join(here, 'expected-failures.json'), JSON.stringify(sorted(expected), null, 2) + '\n');
}
