// Writes schema.graphql (the SDL of the type-graphql classes) and subgraph.graphql (the same schema as an Apollo
// Federation 2 subgraph, src/graphql/subgraph.ts) at the repository root: `npm run schema`.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewaySchema } from '../src/graphql/build-schema.js';
import { printGatewaySchema } from '../src/graphql/print-schema.js';
import { printSubgraphSdl } from '../src/graphql/subgraph.js';
import { projectRoot } from '../src/version.js';

const files: Array<[string, () => Promise<string>]> = [
  ['schema.graphql', printGatewaySchema],
  ['subgraph.graphql', async () => printSubgraphSdl(await buildGatewaySchema())],
];
for (const [name, print] of files) {
  const target = join(projectRoot, name);
  writeFileSync(target, await print());
  process.stdout.write(`wrote ${target}\n`);
}
