#!/usr/bin/env node
// `npm run build`'s last step: the service as `npm start` runs it, one bundle of the compiled dist/src/main.js and
// the packages it imports (dist/bundle/main.js), with the engine's thread entries beside it (dist/bundle/worker.js,
// sort-worker.js, which index builds sort on, and facet-worker.js, a search's facets' second reader); and the store's command-line tools (dist/tools/role.js, …).
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
const toolsDir = join(root, 'dist', 'tools');
rmSync(outdir, { recursive: true, force: true });
const started = Date.now();

// A CommonJS package imported by ES modules is wrapped in a fresh namespace object for each module that imports it:
// graphql's 400 exports were copied for each of the 78 modules that import it (the driver's for 11), about 40 ms
// of every start on Node 20. Imports of these packages from ES modules now go through one ES module per package
// that re-exports it, wrapped once; require() and deep imports (graphql/execution/values.js, which
// src/graphql/argument-values.ts patches) are unchanged, so each package is still one copy.
const SHARED = /^(graphql|mongodb)$/;
const sharedImports = {
  name: 'shared-imports',
  setup(build) {
    build.onResolve({ filter: SHARED }, async (args) => {
      if (args.pluginData === sharedImports || (args.kind !== 'import-statement' && args.kind !== 'dynamic-import'))
        return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: sharedImports,
      });
      return found.errors.length ? found : { path: found.path, namespace: 'shared-import' };
    });
    build.onLoad({ filter: /.*/, namespace: 'shared-import' }, (args) => ({
      // Named exports and `default` (module.exports), as Node presents a CommonJS module to an ES one.
      contents: `export * from ${JSON.stringify(args.path)}; export { default } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};
// A tool's entry loads reflect-metadata before the tool, as main.js does through boot.js: in a bundle, the
// chunks an entry imports statically run before its own first line, and type-graphql's decorators in them need
// the polyfill already in place.
const TOOLS = ['documents', 'role', 'oauth-client', 'oauth-keys', 'webhook', 'store'];
const toolEntries = {
  name: 'tool-entries',
  setup(build) {
    build.onResolve({ filter: /^tool:/ }, (args) => ({ path: args.path.slice('tool:'.length), namespace: 'tool' }));
    build.onLoad({ filter: /.*/, namespace: 'tool' }, (args) => ({
      contents: `await import('reflect-metadata');\nawait import(${JSON.stringify(`./dist/scripts/${args.path}.js`)});\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};
const options = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // type-graphql names GraphQL types after their classes: a class renamed to avoid a clash in the bundle (Issue2)
  // would rename its type, so every function and class keeps its name.
  keepNames: true,
  // Without spaces and comments the start's code is a third smaller, which Node 20 (no compile cache) reads 30 to
  // 60 ms sooner. Names stay (keepNames above, identifiers unminified); stack traces map back to the sources through
  // the linked source maps with NODE_OPTIONS=--enable-source-maps.
  minifyWhitespace: true,
  // mime-db, pinned in different versions by several dependencies, each otherwise loaded at every start: the same
  // table of MIME types, so the newest installed serves them all.
  alias: { 'mime-db': 'mime-db' },
  absWorkingDir: root,
  // Chunks beside the entries: the engine's thread entry is found as ./worker.js from whichever file holds thread.ts.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  plugins: [sharedImports, toolEntries],
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
    // character encodings for request bodies: its 0.5 MB of tables load only for a body in such a charset, not
    // with the code at every start
    'iconv-lite',
    // pino starts its transports from files beside its own; pino-pretty is loaded only at a terminal
    'pino',
    'pino-pretty',
  ],
};
/** One bundle: `entries` beside the engine's thread entries, which the engine finds beside its own code. */
const bundle = (dir, entries) =>
  build({
    entryPoints: {
      ...entries,
      worker: join(root, 'packages/engine/dist/src/worker.js'),
      // index builds' sorting thread, found as ./sort-worker.js beside the file holding storage/sorter.ts
      'sort-worker': join(root, 'packages/engine/dist/src/storage/sort-worker.js'),
      // a search's facets' second reader, found as ./facet-worker.js beside the file holding commands/facet-thread.ts
      'facet-worker': join(root, 'packages/engine/dist/src/commands/facet-worker.js'),
    },
    outdir: dir,
    ...options,
  });
await bundle(outdir, { main: join(root, 'dist/src/main.js') });
// The store's command-line tools (`npm run documents`, `role`, …), one file each too, so that a command starts in
// about half the time. A bundle of their own: chunks shared with main.js would change how the service's start
// is split into files.
rmSync(toolsDir, { recursive: true, force: true });
await bundle(toolsDir, Object.fromEntries(TOOLS.map((name) => [name, `tool:${name}`])));
process.stdout.write(`service and tools bundled into dist/bundle and dist/tools in ${Date.now() - started} ms\n`);
