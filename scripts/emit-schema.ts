// Writes schema.graphql (the SDL of the type-graphql classes) at the repository root: `npm run schema`.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printGatewaySchema } from '../src/graphql/print-schema.js';
import { projectRoot } from '../src/version.js';

const target = join(projectRoot, 'schema.graphql');
writeFileSync(target, await printGatewaySchema());
process.stdout.write(`wrote ${target}\n`);
