#!/usr/bin/env node
// `npm run build`'s last step: the service as `npm start` runs it, one bundle of the compiled dist/src/main.js and
// the packages it imports (dist/bundle/main.js), with the engine's thread entry beside it (dist/bundle/worker.js).
// Node spends most of a start resolving, reading and linking a thousand module files; one file of the same code
// is ready in about half the time. The code is the compiled output tsc checked, unchanged: esbuild only joins it.
// Kept out, loaded from node_modules as usual: native addons, the driver's optional extensions, and packages that
// find files of their own beside them at run time.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
await build({
  entryPoints: {
    main: join(root, 'dist/src/main.js'),
    worker: join(root, 'packages/engine/dist/src/worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // type-graphql names GraphQL types after their classes: a class renamed to avoid a clash in the bundle (Issue2)
  // would rename its type, so every function and class keeps its name.
  keepNames: true,
  // Chunks beside the entries: the engine's thread entry is found as ./worker.js from whichever file holds thread.ts.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  // The bundled CommonJS packages call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  external: [
    // native addons
    'lmdb',
    'msgpackr-extract',
    '@node-rs/argon2',
    // the driver's optional extensions, absent unless installed
    'kerberos',
    'snappy',
    '@mongodb-js/zstd',
    'mongodb-client-encryption',
    'gcp-metadata',
    'socks',
    'aws4',
    '@aws-sdk/credential-providers',
    // type-graphql's optional validator, never configured here
    'class-validator',
    // pino starts its transports from files beside its own; pino-pretty is loaded only at a terminal
    'pino',
    'pino-pretty',
  ],
});
process.stdout.write(`service bundled into dist/bundle in ${Date.now() - started} ms\n`);
