// The unified format's entity map: clients (with the command events they observe), databases,
// collections, sessions, and the values and cursors operations save as entities.
import {
  GridFSBucket,
  MongoClient,
  type ClientSession,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
} from 'mongodb';
import type { Doc, EntityLookup } from './match.js';

type CommandEvent =
  | { kind: 'commandStartedEvent'; e: CommandStartedEvent }
  | { kind: 'commandSucceededEvent'; e: CommandSucceededEvent }
  | { kind: 'commandFailedEvent'; e: CommandFailedEvent };

export interface ClientEntity {
  client: MongoClient;
  events: CommandEvent[];
}

/** Raised for what a runner of this scope does not implement; the suite reports it as a skip reason. */
export class Unsupported extends Error {}

const SENSITIVE = new Set([
  'authenticate',
  'saslstart',
  'saslcontinue',
  'getnonce',
  'createuser',
  'updateuser',
  'copydbgetnonce',
  'copydbsaslstart',
  'copydb',
]);
const HELLO = new Set(['hello', 'ismaster']);

function readOptions(o: Doc | undefined): Doc {
  if (!o) return {};
  const out: Doc = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'timeoutMS') throw new Unsupported('client-side timeoutMS');
    out[k] = v;
  }
  return out;
}

export class Entities implements EntityLookup {
  readonly map = new Map<string, unknown>();

  constructor(
    private readonly uri: string,
    private readonly dbName: (name: string) => string,
  ) {}

  entity(name: string): unknown {
    if (!this.map.has(name)) throw new Error(`no entity named ${name}`);
    return this.map.get(name);
  }

  sessionLsid(name: string): unknown {
    return (this.entity(name) as ClientSession).id;
  }

  client(name: string): ClientEntity {
    const c = this.entity(name) as ClientEntity;
    if (!c || !(c.client instanceof MongoClient)) throw new Error(`entity ${name} is not a client`);
    return c;
  }

  async create(list: Doc[]): Promise<void> {
    for (const item of list) {
      const [kind, spec] = Object.entries(item)[0] as [string, Doc];
      const id = spec.id as string;
      if (this.map.has(id)) throw new Error(`entity ${id} already exists`);
      this.map.set(id, await this.build(kind, spec));
    }
  }

  private async build(kind: string, spec: Doc): Promise<unknown> {
    switch (kind) {
      case 'client':
        return this.buildClient(spec);
      case 'database': {
        const c = this.client(spec.client as string);
        return c.client.db(
          this.dbName(spec.databaseName as string),
          readOptions(spec.databaseOptions as Doc | undefined),
        );
      }
      case 'collection': {
        const db = this.entity(spec.database as string) as Db;
        if (!db || typeof db.collection !== 'function')
          throw new Error(`entity ${String(spec.database)} is not a database`);
        return db.collection(spec.collectionName as string, readOptions(spec.collectionOptions as Doc | undefined));
      }
      case 'session': {
        const c = this.client(spec.client as string);
        return c.client.startSession((spec.sessionOptions as Doc | undefined) ?? {});
      }
      case 'bucket': {
        const db = this.entity(spec.database as string) as Db;
        if (!db || typeof db.collection !== 'function')
          throw new Error(`entity ${String(spec.database)} is not a database`);
        return new GridFSBucket(db, readOptions(spec.bucketOptions as Doc | undefined));
      }
      default:
        throw new Unsupported(`${kind} entities`);
    }
  }

  private async buildClient(spec: Doc): Promise<ClientEntity> {
    const observe = new Set((spec.observeEvents as string[] | undefined) ?? []);
    for (const e of observe) if (!e.startsWith('command')) throw new Unsupported(`observing ${e}`);
    if (spec.storeEventsAsEntities || spec.observeLogMessages || spec.autoEncryptOpts)
      throw new Unsupported('event/log entities or encryption');
    const ignore = new Set(
      ((spec.ignoreCommandMonitoringEvents as string[] | undefined) ?? [])
        .concat('configureFailPoint')
        .map((s) => s.toLowerCase()),
    );
    const sensitive = spec.observeSensitiveCommands === true;
    const uriOptions = { ...((spec.uriOptions as Doc | undefined) ?? {}) };
    if ('appname' in uriOptions) {
      uriOptions.appName = uriOptions.appname;
      delete uriOptions.appname;
    }
    // The versioned API: the driver then sends apiVersion (and apiStrict, apiDeprecationErrors) with every command.
    const api = spec.serverApi as { version: string; strict?: boolean; deprecationErrors?: boolean } | undefined;
    const serverApi = api
      ? { version: api.version as '1', strict: api.strict, deprecationErrors: api.deprecationErrors }
      : undefined;
    // After a state-change error (NotWritablePrimary, ShutdownInProgress, …) the driver re-checks the server at
    // most every minHeartbeatFrequencyMS (default 500 ms) before it retries: that wait is the driver's pacing,
    // not what the tests check, so it is 50 ms here unless a test's uriOptions say otherwise.
    const client = new MongoClient(this.uri, {
      monitorCommands: true,
      serverSelectionTimeoutMS: 5000,
      minHeartbeatFrequencyMS: 50,
      ...(serverApi ? { serverApi } : {}),
      ...uriOptions,
    });
    const entity: ClientEntity = { client, events: [] };
    const keep = (name: string, cmd?: Doc): boolean => {
      const n = name.toLowerCase();
      if (ignore.has(n)) return false;
      if (sensitive) return true;
      if (SENSITIVE.has(n)) return false;
      // hello is sensitive only with speculativeAuthenticate (the driver then reports it redacted, as {}).
      if (HELLO.has(n) && cmd && ('speculativeAuthenticate' in cmd || Object.keys(cmd).length === 0)) return false;
      return true;
    };
    const startedCmd = new Map<number, Doc>();
    client.on('commandStarted', (e) => {
      startedCmd.set(e.requestId, e.command);
      if (observe.has('commandStartedEvent') && keep(e.commandName, e.command))
        entity.events.push({ kind: 'commandStartedEvent', e });
    });
    client.on('commandSucceeded', (e) => {
      const cmd = startedCmd.get(e.requestId);
      if (observe.has('commandSucceededEvent') && keep(e.commandName, cmd))
        entity.events.push({ kind: 'commandSucceededEvent', e });
    });
    client.on('commandFailed', (e) => {
      const cmd = startedCmd.get(e.requestId);
      if (observe.has('commandFailedEvent') && keep(e.commandName, cmd))
        entity.events.push({ kind: 'commandFailedEvent', e });
    });
    await client.connect();
    return entity;
  }

  /** Ends sessions and closes clients. */
  async close(): Promise<void> {
    for (const v of this.map.values()) {
      if (v && typeof v === 'object' && 'endSession' in v)
        await (v as ClientSession).endSession().catch(() => undefined);
    }
    for (const v of this.map.values()) {
      if (v && typeof v === 'object' && 'client' in v && (v as ClientEntity).client instanceof MongoClient)
        await (v as ClientEntity).client.close();
    }
  }
}
