// The schema's SDL as committed in schema.graphql: sorted, so the file changes only when the schema does.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildGatewaySchema } from './build-schema.js';

export async function printGatewaySchema(): Promise<string> {
  const schema = await buildGatewaySchema();
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
