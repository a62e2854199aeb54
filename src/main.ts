// Process entry. Node keeps the code it compiles for the service's modules in dist/compile-cache (from Node 22.1;
// older versions have no such cache and compile them on every start), so a restart reads code instead of
// compiling it. The cache must be on before those modules load: the rest of the start is imported after it.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const withCache = module as typeof module & { enableCompileCache?: (dir: string) => unknown };
if (withCache.enableCompileCache) {
  const dir = fileURLToPath(new URL('../compile-cache', import.meta.url));
  // A cache that cannot be written (a read-only directory) only leaves the start as slow as without it.
  withCache.enableCompileCache(dir);
  // The embedded engine's thread takes the setting from its environment (a copy of this one, made when it starts).
  process.env.NODE_COMPILE_CACHE = dir;
}
await import('./boot.js');
