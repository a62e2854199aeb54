// Compiles TypeScript folders to JavaScript with swc, file by file, for test runs: the settings of the package's
// .swcrc (the same the tests' transform uses), in a second or two where tsc takes tens of seconds of CPU before
// the first test. Types are `npm run typecheck`'s job. The service's test setup uses it for its own folders too.
// Plain JavaScript: jest loads global setups outside its module system, and they import this file by path.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { transformFile } from '@swc/core';

/**
 * Compiles every .ts file under `root`/`dir` (for each dir) to `root`/dist/`dir`, with `root`/.swcrc.
 * @param {string} root
 * @param {string[]} dirs
 * @returns {Promise<void>}
 */
export async function swcBuild(root, dirs) {
  const options = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
  const sources = dirs.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => join(dir, f)),
  );
  await Promise.all(
    sources.map(async (source) => {
      const out = join(root, 'dist', source.replace(/\.ts$/, '.js'));
      const { code, map } = await transformFile(join(root, source), {
        ...options,
        swcrc: false,
        sourceFileName: join(root, source),
        outputPath: out,
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${code}\n//# sourceMappingURL=${basename(out)}.map\n`);
      if (map) writeFileSync(`${out}.map`, map);
    }),
  );
}
