// The format's special "testRunner" operations this runner implements (assertions on collections and
// indexes, entity creation); fail points and session pinning are outside a standalone's scope.
import type { MongoClient } from 'mongodb';
import { Unsupported, type Entities } from './entities.js';
import { MatchError, type Doc } from './match.js';
import type { Operation } from './operations.js';

async function collectionNames(internal: MongoClient, db: string): Promise<string[]> {
  return (await internal.db(db).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
}

async function indexNames(internal: MongoClient, db: string, coll: string): Promise<string[]> {
  return (await internal.db(db).collection(coll).listIndexes().toArray()).map((i) => i.name as string);
}

export async function testRunnerOp(op: Operation, ents: Entities, internal: MongoClient): Promise<unknown> {
  const a = op.arguments ?? ({} as Doc);
  const db = a.databaseName as string;
  const coll = a.collectionName as string;
  switch (op.name) {
    case 'assertCollectionExists':
      if (!(await collectionNames(internal, db)).includes(coll)) throw new MatchError(`collection ${db}.${coll} should exist`);
      return undefined;
    case 'assertCollectionNotExists':
      if ((await collectionNames(internal, db)).includes(coll)) throw new MatchError(`collection ${db}.${coll} should not exist`);
      return undefined;
    case 'assertIndexExists':
      if (!(await indexNames(internal, db, coll)).includes(a.indexName as string)) throw new MatchError(`index ${String(a.indexName)} should exist on ${db}.${coll}`);
      return undefined;
    case 'assertIndexNotExists': {
      const names = await indexNames(internal, db, coll).catch(() => [] as string[]);
      if (names.includes(a.indexName as string)) throw new MatchError(`index ${String(a.indexName)} should not exist on ${db}.${coll}`);
      return undefined;
    }
    case 'createEntities':
      await ents.create(a.entities as Doc[]);
      return undefined;
    default:
      throw new Unsupported(`testRunner operation ${op.name}`);
  }
}
