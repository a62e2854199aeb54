// Relay as a Relay app builds and runs it: relay-compiler compiles `graphql` tagged documents against
// schema.graphql into artifacts (refusing documents or a schema that break Relay's rules), and relay-runtime
// sends them over HTTP and normalizes the answers into its store.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Environment, Network, RecordSource, Store, type GraphQLTaggedNode } from 'relay-runtime';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Compiled {
  /** Artifacts by operation or fragment name. */
  artifacts: Record<string, GraphQLTaggedNode>;
  remove(): void;
}

/** Compiles `source` (a module of `graphql` tagged documents named `module`) and loads the artifacts. */
export async function compileRelay(module: string, source: string): Promise<Compiled> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, '__generated__'));
  writeFileSync(join(dir, 'src', `${module}.js`), source);
  writeFileSync(join(dir, '__generated__', 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(dir, 'relay.config.json'),
    JSON.stringify({
      src: './src',
      schema: join(ROOT, 'schema.graphql'),
      language: 'javascript',
      eagerEsModules: true,
      artifactDirectory: './__generated__',
    }),
  );
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'relay-compiler', 'cli.js'), join(dir, 'relay.config.json')],
    { cwd: dir, stdio: 'pipe' },
  );
  const artifacts: Record<string, GraphQLTaggedNode> = {};
  for (const file of readdirSync(join(dir, '__generated__')).filter((n) => n.endsWith('.graphql.js'))) {
    // Its ES modules import each other without the file extension, which Node's resolver requires.
    const path = join(dir, '__generated__', file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/from '(\.\/[^']+\.graphql)'/g, "from '$1.js'"));
    artifacts[file.replace('.graphql.js', '')] = (
      (await import(pathToFileURL(path).href)) as { default: GraphQLTaggedNode }
    ).default;
  }
  return { artifacts, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An environment with an empty store whose network POSTs to `url`; `onRequest` sees each request and status. */
export function relayEnvironment(
  url: string,
  onRequest?: (request: { name: string; variables: Record<string, unknown>; status: number }) => void,
): Environment {
  const network = Network.create(async (params, variables) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: params.text, variables, operationName: params.name }),
    });
    onRequest?.({ name: params.name, variables, status: res.status });
    return (await res.json()) as never;
  });
  return new Environment({ network, store: new Store(new RecordSource()) });
}
