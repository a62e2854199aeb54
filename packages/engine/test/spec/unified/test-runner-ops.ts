// The format's special "testRunner" operations this runner implements (assertions on collections and
// indexes, entity creation, fail points set through a client); session pinning is outside a standalone's scope.
import type { ClientSession, MongoClient } from 'mongodb';
import { Unsupported, type Entities } from './entities.js';
import { MatchError, type Doc } from './match.js';
import type { Operation } from './operations.js';

async function collectionNames(internal: MongoClient, db: string): Promise<string[]> {
  return (await internal.db(db).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
}

async function indexNames(internal: MongoClient, db: string, coll: string): Promise<string[]> {
  return (await internal.db(db).collection(coll).listIndexes().toArray()).map((i) => i.name as string);
}

/** Whether a session's server session is marked dirty (a network error happened while it was in use). */
function dirty(ents: Entities, name: string): boolean {
  const session = ents.entity(name) as ClientSession & { serverSession?: { isDirty?: boolean } };
  return session.serverSession?.isDirty === true;
}

/** The lsid ids of the client's last two command-started events, as hex. */
function lastTwoLsids(ents: Entities, client: string): [string, string] {
  const started = ents.client(client).events.filter((e) => e.kind === 'commandStartedEvent');
  if (started.length < 2)
    throw new MatchError(`client ${client} observed ${started.length} command-started events, need two`);
  const lsid = (i: number): string => {
    const cmd = started[started.length - i]!.e.command as { lsid?: { id?: { toString(enc: string): string } } };
    if (!cmd.lsid?.id) throw new MatchError(`command ${started[started.length - i]!.e.commandName} carried no lsid`);
    return cmd.lsid.id.toString('hex');
  };
  return [lsid(2), lsid(1)];
}

export async function testRunnerOp(op: Operation, ents: Entities, internal: MongoClient): Promise<unknown> {
  const a = op.arguments ?? ({} as Doc);
  const db = a.databaseName as string;
  const coll = a.collectionName as string;
  switch (op.name) {
    case 'assertCollectionExists':
      if (!(await collectionNames(internal, db)).includes(coll))
        throw new MatchError(`collection ${db}.${coll} should exist`);
      return undefined;
    case 'assertCollectionNotExists':
      if ((await collectionNames(internal, db)).includes(coll))
        throw new MatchError(`collection ${db}.${coll} should not exist`);
      return undefined;
    case 'assertIndexExists':
      if (!(await indexNames(internal, db, coll)).includes(a.indexName as string))
        throw new MatchError(`index ${String(a.indexName)} should exist on ${db}.${coll}`);
      return undefined;
    case 'assertIndexNotExists': {
      const names = await indexNames(internal, db, coll).catch(() => [] as string[]);
      if (names.includes(a.indexName as string))
        throw new MatchError(`index ${String(a.indexName)} should not exist on ${db}.${coll}`);
      return undefined;
    }
    case 'assertSessionDirty':
    case 'assertSessionNotDirty':
      if (dirty(ents, a.session as string) !== (op.name === 'assertSessionDirty'))
        throw new MatchError(
          `session ${String(a.session)} should${op.name === 'assertSessionDirty' ? '' : ' not'} be dirty`,
        );
      return undefined;
    case 'assertSameLsidOnLastTwoCommands':
    case 'assertDifferentLsidOnLastTwoCommands': {
      const [x, y] = lastTwoLsids(ents, a.client as string);
      if ((x === y) !== (op.name === 'assertSameLsidOnLastTwoCommands'))
        throw new MatchError(
          `the last two commands of ${String(a.client)} should carry ${op.name === 'assertSameLsidOnLastTwoCommands' ? 'the same' : 'different'} lsids (${x}, ${y})`,
        );
      return undefined;
    }
    case 'failPoint': {
      // Set through the test's client (so an appName filter sees that client's handshake); turned off after the test.
      const fp = a.failPoint as Doc;
      await ents
        .client(a.client as string)
        .client.db('admin')
        .command(fp);
      return undefined;
    }
    case 'createEntities':
      await ents.create(a.entities as Doc[]);
      return undefined;
    default:
      throw new Unsupported(`testRunner operation ${op.name}`);
  }
}
