// schema.graphql, subgraph.graphql and the generated operation types are committed; these fail when one is stale
// (run `npm run schema && npm run codegen`).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildGatewaySchema } from '../../src/graphql/build-schema.js';
import { printGatewaySchema } from '../../src/graphql/print-schema.js';
import { printSubgraphSdl } from '../../src/graphql/subgraph.js';
import { projectRoot } from '../../src/version.js';

const run = promisify(execFile);

test('schema.graphql is the SDL of the type-graphql classes', async () => {
  const committed = readFileSync(join(projectRoot, 'schema.graphql'), 'utf8');
  expect(await printGatewaySchema()).toBe(committed);
});

test('subgraph.graphql is the SDL of the schema as a federation subgraph', async () => {
  const committed = readFileSync(join(projectRoot, 'subgraph.graphql'), 'utf8');
  expect(printSubgraphSdl(await buildGatewaySchema())).toBe(committed);
});

test('the generated typed documents match schema.graphql and the .graphql documents', async () => {
  const bin = join(projectRoot, 'node_modules/@graphql-codegen/cli/esm/bin.js');
  await expect(
    run(process.execPath, [bin, '--config', 'codegen.yml', '--check'], { cwd: projectRoot }),
  ).resolves.toBeDefined();
}, 60_000);
