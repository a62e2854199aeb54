// Unified-format operations mapped onto the Node.js driver's API, and the driver's results turned into
// the plain shapes the format's expectations describe (Maps of per-index results become documents).
import {
  AbstractCursor,
  GridFSBucket,
  MongoClient,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import { Unsupported, type ClientEntity, type Entities } from './entities.js';
import { MatchError, type Doc } from './match.js';

export interface Operation {
  name: string;
  object: string;
  arguments?: Doc;
}

/** Results from iterable operations whose elements are root-level documents when matched. */
export const ITERABLE = new Set([
  'find',
  'aggregate',
  'listIndexes',
  'listCollections',
  'listDatabases',
  'runCursorCommand',
  'listSearchIndexes',
]);

function plain(v: unknown): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

/** A client bulk write result (or partial result) in the format's shape. */
export function clientBulkResult(r: Document | undefined): Doc | undefined {
  if (!r) return undefined;
  const out: Doc = {};
  for (const k of ['insertedCount', 'upsertedCount', 'matchedCount', 'modifiedCount', 'deletedCount']) out[k] = r[k];
  for (const k of ['insertResults', 'deleteResults']) if (r[k] !== undefined) out[k] = plain(r[k]);
  // The format's UpdateResult is {matchedCount, modifiedCount, upsertedId?}; driver 7 adds didUpsert.
  if (r.updateResults !== undefined) {
    const u = plain(r.updateResults) as Record<string, Doc>;
    out.updateResults = Object.fromEntries(Object.entries(u).map(([i, { didUpsert: _d, ...rest }]) => [i, rest]));
  }
  return out;
}

export function bulkResult(r: Document | undefined): Doc | undefined {
  if (!r) return undefined;
  const out: Doc = {};
  for (const k of [
    'insertedCount',
    'matchedCount',
    'modifiedCount',
    'deletedCount',
    'upsertedCount',
    'upsertedIds',
    'insertedIds',
  ])
    out[k] = r[k];
  return out;
}

function clientModels(models: Doc[]): Document[] {
  return models.map((m) => {
    const [name, args] = Object.entries(m)[0] as [string, Doc];
    return { name, ...args };
  });
}

function returnDocument(a: Doc): Doc {
  if (typeof a.returnDocument === 'string') return { ...a, returnDocument: a.returnDocument.toLowerCase() };
  return a;
}

function take(a: Doc, ...names: string[]): unknown[] {
  const out = names.map((n) => a[n]);
  for (const n of names) delete a[n];
  return out;
}

async function all(cursor: AbstractCursor): Promise<Document[]> {
  return cursor.toArray();
}

/** Arguments the format requires; a test file without them is malformed, whatever ignoreResultAndError says. */
const REQUIRED: Record<string, string[]> = {
  insertOne: ['document'],
  insertMany: ['documents'],
  updateOne: ['filter', 'update'],
  updateMany: ['filter', 'update'],
  replaceOne: ['filter', 'replacement'],
  deleteOne: ['filter'],
  deleteMany: ['filter'],
  find: ['filter'],
  createFindCursor: ['filter'],
  countDocuments: ['filter'],
  distinct: ['fieldName', 'filter'],
  findOneAndUpdate: ['filter', 'update'],
  findOneAndReplace: ['filter', 'replacement'],
  findOneAndDelete: ['filter'],
  bulkWrite: ['requests'],
  clientBulkWrite: ['models'],
  aggregate: ['pipeline'],
  createIndex: ['keys'],
  runCommand: ['command'],
};

function validate(op: Operation): void {
  const a = op.arguments ?? {};
  for (const name of REQUIRED[op.name] ?? [])
    if (!(name in a)) throw new MatchError(`malformed operation ${op.name}: argument ${name} is required`);
  if ('returnDocument' in a && a.returnDocument !== 'Before' && a.returnDocument !== 'After')
    throw new MatchError(`malformed operation ${op.name}: returnDocument must be Before or After`);
}

/** Operations another suite adds (the change-stream spec tests): tried first; undefined means "not mine". */
export const addedOperations: Array<(name: string, target: unknown, a: Doc) => Promise<unknown> | undefined> = [];

/** Runs one operation; returns what `expectResult` is matched against. */
export async function execute(op: Operation, ents: Entities): Promise<unknown> {
  validate(op);
  const target = op.object === 'testRunner' ? undefined : ents.entity(op.object);
  const a: Doc = { ...(op.arguments ?? {}) };
  if (typeof a.session === 'string') a.session = ents.entity(a.session) as ClientSession;
  if ('timeoutMS' in a) throw new Unsupported('client-side timeoutMS');
  for (const added of addedOperations) {
    const result = added(op.name, target, a);
    if (result) return result;
  }
  if (
    target &&
    typeof (target as Collection).collectionName === 'string' &&
    typeof (target as Collection).insertOne === 'function'
  )
    return collectionOp(op.name, target as Collection, a);
  if (target instanceof AbstractCursor) return cursorOp(op.name, target);
  if (target && typeof (target as Db).databaseName === 'string' && typeof (target as Db).collection === 'function')
    return databaseOp(op.name, target as Db, a);
  if (target instanceof GridFSBucket) return bucketOp(op.name, target, a);
  // A session before a client: a ClientSession has a `client` property too.
  if (target && typeof (target as ClientSession).endSession === 'function') {
    if (op.name === 'endSession') return (target as ClientSession).endSession();
    throw new Unsupported(`session operation ${op.name}`);
  }
  if (target && (target as ClientEntity).client instanceof MongoClient)
    return clientOp(op.name, (target as ClientEntity).client, a);
  throw new Unsupported(`operation ${op.name} on ${op.object}`);
}

/** A GridFS `source`/bytes argument: {$$hexBytes: "..."}. */
function hexBytes(v: unknown): Buffer {
  const hex = (v as { $$hexBytes?: unknown } | undefined)?.$$hexBytes;
  if (typeof hex !== 'string' || !/^([0-9a-f]{2})*$/i.test(hex))
    throw new MatchError(`malformed GridFS source ${JSON.stringify(v)}`);
  return Buffer.from(hex, 'hex');
}

async function drain(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts);
}

async function bucketOp(name: string, b: GridFSBucket, a: Doc): Promise<unknown> {
  switch (name) {
    case 'delete':
      return b.delete(a.id as never);
    case 'download':
      return drain(b.openDownloadStream(a.id as never));
    case 'downloadByName':
      return drain(
        b.openDownloadStreamByName(
          a.filename as string,
          a.revision === undefined ? {} : { revision: a.revision as number },
        ),
      );
    case 'rename':
      return b.rename(a.id as never, a.newFilename as string);
    case 'upload': {
      const { filename, source, ...options } = a;
      if ('disableMD5' in options) delete options.disableMD5; // the driver computes no MD5 (the spec made it optional)
      const stream = b.openUploadStream(filename as string, options);
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(hexBytes(source), () => resolve());
      });
      return stream.id;
    }
    default:
      throw new Unsupported(`bucket operation ${name}`);
  }
}

async function collectionOp(name: string, c: Collection, a: Doc): Promise<unknown> {
  switch (name) {
    case 'insertOne': {
      const [doc] = take(a, 'document');
      return c.insertOne(doc as Document, a);
    }
    case 'insertMany': {
      const [docs] = take(a, 'documents');
      return c.insertMany(docs as Document[], a);
    }
    case 'deleteOne':
    case 'deleteMany': {
      const [filter] = take(a, 'filter');
      return c[name](filter as Document, a);
    }
    case 'updateOne':
    case 'updateMany': {
      const [filter, update] = take(a, 'filter', 'update');
      return c[name](filter as Document, update as Document, a);
    }
    case 'replaceOne': {
      const [filter, replacement] = take(a, 'filter', 'replacement');
      return c.replaceOne(filter as Document, replacement as Document, a);
    }
    case 'find': {
      const [filter] = take(a, 'filter');
      return all(c.find(filter as Document, a));
    }
    case 'findOne': {
      const [filter] = take(a, 'filter');
      return c.findOne(filter as Document, a);
    }
    case 'createFindCursor': {
      const [filter] = take(a, 'filter');
      const cursor = c.find(filter as Document, a);
      await cursor.hasNext();
      return cursor;
    }
    case 'aggregate': {
      const [pipeline] = take(a, 'pipeline');
      return all(c.aggregate(pipeline as Document[], a));
    }
    case 'countDocuments': {
      const [filter] = take(a, 'filter');
      return c.countDocuments(filter as Document, a);
    }
    case 'estimatedDocumentCount':
      return c.estimatedDocumentCount(a);
    case 'count': {
      const [filter] = take(a, 'filter');
      return c.count(filter as Document, a);
    }
    case 'distinct': {
      const [field, filter] = take(a, 'fieldName', 'filter');
      return c.distinct(field as string, filter as Document, a);
    }
    case 'findOneAndUpdate': {
      const [filter, update] = take(a, 'filter', 'update');
      return c.findOneAndUpdate(filter as Document, update as Document, returnDocument(a));
    }
    case 'findOneAndReplace': {
      const [filter, replacement] = take(a, 'filter', 'replacement');
      return c.findOneAndReplace(filter as Document, replacement as Document, returnDocument(a));
    }
    case 'findOneAndDelete': {
      const [filter] = take(a, 'filter');
      return c.findOneAndDelete(filter as Document, a);
    }
    case 'bulkWrite': {
      const [requests] = take(a, 'requests');
      return bulkResult(await c.bulkWrite(requests as never, a));
    }
    case 'createIndex': {
      const [keys] = take(a, 'keys');
      return c.createIndex(keys as Document, a);
    }
    case 'dropIndex': {
      const [index] = take(a, 'name');
      return c.dropIndex(index as string, a);
    }
    case 'dropIndexes':
      return c.dropIndexes(a);
    case 'listIndexes':
      return all(c.listIndexes(a));
    case 'drop':
      return c.drop(a);
    default:
      throw new Unsupported(`collection operation ${name}`);
  }
}

async function databaseOp(name: string, db: Db, a: Doc): Promise<unknown> {
  switch (name) {
    case 'createCollection': {
      const [coll] = take(a, 'collection');
      await db.createCollection(coll as string, a);
      return undefined;
    }
    case 'dropCollection': {
      const [coll] = take(a, 'collection');
      return db.dropCollection(coll as string, a);
    }
    case 'listCollections': {
      const [filter] = take(a, 'filter');
      return all(db.listCollections(filter as Document, a));
    }
    case 'listCollectionNames': {
      const [filter] = take(a, 'filter');
      return (await db.listCollections(filter as Document, { ...a, nameOnly: true }).toArray()).map((d) => d.name);
    }
    case 'aggregate': {
      const [pipeline] = take(a, 'pipeline');
      return all(db.aggregate(pipeline as Document[], a));
    }
    case 'runCommand': {
      const [command] = take(a, 'command', 'commandName');
      return db.command(command as Document, a);
    }
    case 'runCursorCommand': {
      const [command] = take(a, 'command', 'commandName');
      return all(db.runCursorCommand(command as Document, a));
    }
    case 'createCommandCursor': {
      const [command] = take(a, 'command', 'commandName');
      const cursor = db.runCursorCommand(command as Document, a);
      await cursor.hasNext();
      return cursor;
    }
    case 'modifyCollection': {
      const [coll] = take(a, 'collection');
      return db.command({ collMod: coll, ...a });
    }
    default:
      throw new Unsupported(`database operation ${name}`);
  }
}

async function clientOp(name: string, client: MongoClient, a: Doc): Promise<unknown> {
  switch (name) {
    case 'clientBulkWrite': {
      const [models] = take(a, 'models');
      return clientBulkResult(await client.bulkWrite(clientModels(models as Doc[]) as never, a));
    }
    case 'listDatabases':
      return (await client.db('admin').admin().listDatabases(a)).databases;
    case 'listDatabaseNames':
      return (
        await client
          .db('admin')
          .admin()
          .listDatabases({ ...a, nameOnly: true })
      ).databases.map((d) => d.name);
    default:
      throw new Unsupported(`client operation ${name}`);
  }
}

async function cursorOp(name: string, cursor: AbstractCursor): Promise<unknown> {
  switch (name) {
    case 'iterateUntilDocumentOrError':
      return cursor.next();
    case 'iterateOnce':
      return cursor.tryNext();
    case 'close':
      return cursor.close();
    default:
      throw new Unsupported(`cursor operation ${name}`);
  }
}
