#!/usr/bin/env node
// `npm run lint`: runs `npm run lint:<name>` for each name given, one after another, and fails if any failed.
// Every check runs even after one fails, so one run shows all that is wrong. A new check is a `lint:<name>`
// script in package.json plus its name in the `lint` script's list.
import { spawnSync } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/lint.mjs <check>... (each runs `npm run lint:<check>`)\n');
  process.exit(2);
}

const failed = [];
for (const name of names) {
  const started = Date.now();
  process.stdout.write(`\n== lint:${name}\n`);
  const { status, error } = spawnSync('npm', ['run', '--silent', `lint:${name}`], { stdio: 'inherit' });
  if (error) throw error;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`== lint:${name} ${status === 0 ? 'passed' : 'FAILED'} (${seconds} s)\n`);
  if (status !== 0) failed.push(name);
}

if (failed.length > 0) {
  process.stderr.write(`\nlint failed: ${failed.map((name) => `lint:${name}`).join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`\nlint passed: ${names.join(', ')}\n`);
