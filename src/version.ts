// The package name and version, read once from the nearest package.json (works from src/ and dist/src/).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageJson(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('package.json not found');
  }
}

export const projectRoot = dirname(findPackageJson(dirname(fileURLToPath(import.meta.url))));
const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string };
export const serviceName = pkg.name;
export const serviceVersion = pkg.version;
