// The resumable change-stream loop (src/store/resumable-watch.ts) across an engine restart: on the same data
// directory the history still has the token, so the stream resumes (no gap) and replays what was written while
// it was away; on a fresh directory the history is gone, so the stream starts anew and says so (a gap: the hub
// then fills from the store, the response cache evicts everything). Its start: a change made once it resolves
// reaches it, a kept token the store no longer has starts it at the present (a gap), a failure of its first wait
// reopens it from its token, and a store that cannot watch is reported. The hub's and the cache's own tests cover
// the rest (two processes, a restart on the same directory, the store process's outage).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoServerError, type ChangeStreamDocument } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startEngine, type RunningEngine } from '@gateway/engine';
import { ResumableWatch, type WatchSpec } from '../../src/store/resumable-watch.js';
import { Store } from '../../src/store/store.js';

const HISTORY_LOST = 286;

interface Watched {
  watch: ResumableWatch;
  /** In order: `insert:<_id>` for each change, `reopened` / `reopened with a gap`. */
  events: string[];
  /** Resolves once `predicate` holds for the events seen. */
  seen(predicate: (events: string[]) => boolean): Promise<string[]>;
}

async function watchNotes(store: Store, more: Partial<WatchSpec> = {}): Promise<Watched> {
  const events: string[] = [];
  const waiters: Array<{ predicate: (e: string[]) => boolean; resolve: (e: string[]) => void }> = [];
  const note = (event: string): void => {
    events.push(event);
    for (const w of [...waiters])
      if (w.predicate(events)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(events);
      }
  };
  const watch = await ResumableWatch.start(store, createLogger('silent'), {
    name: 'test stream',
    pipeline: [{ $match: { 'ns.coll': 'notes' } }],
    options: { maxAwaitTimeMS: 200 },
    forgetsToken: (err) => err instanceof MongoServerError && err.code === HISTORY_LOST,
    onChange: (change: ChangeStreamDocument) =>
      note(`${change.operationType}:${'documentKey' in change ? String(change.documentKey._id) : ''}`),
    onReopened: ({ gap }) => note(gap ? 'reopened with a gap' : 'reopened'),
    onFailure: () => note('failed'),
    onUnsupported: () => note('unsupported'),
    ...more,
  });
  return {
    watch,
    events,
    seen: (predicate) =>
      predicate(events) ? Promise.resolve(events) : new Promise((resolve) => waiters.push({ predicate, resolve })),
  };
}

async function openStore(engine: RunningEngine): Promise<Store> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    MONGODB_URI: engine.uri,
    MONGODB_DB: 'resumable_watch',
    // The engine runs on this worker's thread: a heartbeat answered late while the machine is loaded would clear
    // the pool under the test's own writes ("interrupted due to server monitor timeout"). The default is 2 s.
    STORE_TIMEOUT_MS: '4000',
  });
  return Store.open(config.store, createLogger('silent'));
}

/** Inserts, retrying while the restarted engine is not yet reachable (an attempt whose reply was lost may have written). */
async function insertNote(store: Store, _id: string): Promise<void> {
  for (;;) {
    try {
      await store.db.collection<{ _id: string }>('notes').insertOne({ _id });
      return;
    } catch {
      if (
        await store.db
          .collection<{ _id: string }>('notes')
          .findOne({ _id })
          .catch(() => null)
      )
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe.each([
  [
    'on the same data directory, the stream resumes from its token: no gap, and a write made while it was away arrives',
    true,
  ],
  ['on a fresh data directory (the history is gone), the stream starts anew and reports the gap', false],
])('an engine restarted %s', (_label, sameDirectory) => {
  const dbPath = mkdtempSync(join(tmpdir(), 'resumable-watch-'));
  let engine: RunningEngine;
  let store: Store;
  let watched: Watched;

  beforeAll(async () => {
    engine = await startEngine({ port: 0, ...(sameDirectory ? { dbPath } : {}) });
    store = await openStore(engine);
    watched = await watchNotes(store);
  });
  afterAll(async () => {
    await watched?.watch.close();
    await store?.close().catch(() => undefined);
    await engine?.close().catch(() => undefined);
    rmSync(dbPath, { recursive: true, force: true });
  });

  test('the writes before and after the restart both reach it', async () => {
    await insertNote(store, 'before');
    await watched.seen((e) => e.includes('insert:before'));

    await engine.close();
    engine = await startEngine({ port: engine.port, ...(sameDirectory ? { dbPath } : {}) });
    if (sameDirectory) {
      await insertNote(store, 'while-away');
      const events = await watched.seen((e) => e.includes('insert:while-away'));
      // The driver may have resumed by itself (then nothing was reopened here); either way without a gap.
      expect(events.filter((e) => e.startsWith('insert'))).toEqual(['insert:before', 'insert:while-away']);
      expect(events).not.toContain('reopened with a gap');
    } else {
      await watched.seen((e) => e.includes('reopened with a gap'));
      await insertNote(store, 'after');
      const events = await watched.seen((e) => e.includes('insert:after'));
      expect(events.filter((e) => e.startsWith('reopened'))).toEqual(['reopened with a gap']);
      expect(events.at(-1)).toBe('insert:after');
    }
    expect(watched.watch.watching).toBe(true);
  });
});

describe('the start', () => {
  let engine: RunningEngine;
  let store: Store;
  const watches: ResumableWatch[] = [];
  const failCommand = (mode: unknown, data: Record<string, unknown>) =>
    store.client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });

  beforeAll(async () => {
    engine = await startEngine({ port: 0, testCommands: true });
    store = await openStore(engine);
  });
  afterEach(async () => {
    await failCommand('off', { failCommands: ['aggregate'] });
    await Promise.all(watches.splice(0).map((watch) => watch.close()));
  });
  afterAll(async () => {
    await store?.close().catch(() => undefined);
    await engine?.close().catch(() => undefined);
  });

  test('a change made as soon as the start resolves reaches the stream', async () => {
    // The store is slow to accept the stream (a write meanwhile would come before the stream's start), and then
    // waits long for a change: the start resolves once the stream is accepted, while that first wait is under way.
    await failCommand({ times: 1 }, { failCommands: ['aggregate'], blockConnection: true, blockTimeMS: 300 });
    const watched = await watchNotes(store, { options: { maxAwaitTimeMS: 5_000 } });
    watches.push(watched.watch);
    await insertNote(store, 'at-once');
    expect(await watched.seen((e) => e.includes('insert:at-once'))).toEqual(['insert:at-once']);
  });

  test('a kept resume token the store no longer has: the stream starts at the present and reports the gap', async () => {
    // A token of another store's history (another engine: another epoch).
    const other = await startEngine({ port: 0 });
    let kept: unknown;
    try {
      const otherStore = await openStore(other);
      const first = await watchNotes(otherStore, { onChange: (change) => (kept = change._id) });
      await insertNote(otherStore, 'elsewhere');
      while (kept === undefined) await new Promise((r) => setTimeout(r, 20));
      await first.watch.close();
      await otherStore.close();
    } finally {
      await other.close();
    }
    const watched = await watchNotes(store, { resumeAfter: kept as WatchSpec['resumeAfter'] });
    watches.push(watched.watch);
    expect(watched.events).toEqual(['reopened with a gap']);
    await insertNote(store, 'after-gap');
    expect(await watched.seen((e) => e.includes('insert:after-gap'))).toEqual([
      'reopened with a gap',
      'insert:after-gap',
    ]);
  });

  test('its first wait failing: the stream is reopened from its token, without a gap', async () => {
    await failCommand({ times: 1 }, { failCommands: ['getMore'], errorCode: 2 });
    const watched = await watchNotes(store);
    watches.push(watched.watch);
    await watched.seen((e) => e.includes('reopened'));
    await insertNote(store, 'after-failure');
    const events = await watched.seen((e) => e.includes('insert:after-failure'));
    expect(events).toEqual(['failed', 'reopened', 'insert:after-failure']);
    expect(watched.watch.watching).toBe(true);
  });

  test('a store that cannot run change streams: the start resolves, watching nothing', async () => {
    await failCommand('alwaysOn', { failCommands: ['aggregate'], errorCode: 40573 });
    const watched = await watchNotes(store);
    expect(watched.events).toEqual(['unsupported']);
    expect(watched.watch.watching).toBe(false);
  });
});
