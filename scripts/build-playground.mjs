#!/usr/bin/env node
// Bundles the GraphQL playground (GraphiQL 3, React 18) from node_modules into dist/playground/ with
// esbuild: one hashed script and one hashed stylesheet (fonts and icons are inlined as data URLs),
// plus manifest.json naming them. The service serves these files itself, so the page needs no CDN.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'playground');
// Built beside the final directory and swapped in, so a running service never sees a half-written bundle.
const tmpDir = `${outDir}.tmp-${process.pid}`;

const started = Date.now();
await rm(tmpDir, { recursive: true, force: true });
await mkdir(tmpDir, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { playground: 'src/playground/client/entry.jsx' },
  outdir: tmpDir,
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2020'],
  jsx: 'automatic',
  loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
if (!js || !css) throw new Error(`esbuild produced no script or stylesheet: ${outputs.join(', ')}`);
await writeFile(
  join(tmpDir, 'manifest.json'),
  `${JSON.stringify({ js, css, builtAt: new Date().toISOString() }, null, 2)}\n`,
);

await rm(outDir, { recursive: true, force: true });
await rename(tmpDir, outDir);
process.stdout.write(`playground bundled into dist/playground (${js}, ${css}) in ${Date.now() - started} ms\n`);
