// Index builds as the commands see them. createIndexes builds a new index over a collection that holds
// documents in the background (storage/index-build.ts): its transaction only registers the build, which then
// runs a step per write transaction (STEP_MS of work, or less while its sorter needs time), other commands
// being served between steps, and the
// command answers once the build has ended, as MongoDB's createIndexes does (an error, e.g. a key too long,
// abandons the index and is the command's reply). Unique (and prepareUnique) indexes are built inside the
// command's transaction as before: a write during the build could otherwise add a duplicate the build would
// only find at its end. While an index builds, no query uses it ($text answers "text index required", a hint
// names no index) and listIndexes does not show it; a second createIndexes of the same index waits for it;
// dropIndexes or dropping the collection abandons it (its waiters get IndexBuildAborted). `currentOp` lists
// the builds under way with MongoDB's `msg` and `progress: { done, total }` of the phase under way. A build the
// engine was stopped in starts again when it does. The memory a build's sorter uses is mongod's
// maxIndexBuildMemoryUsageMegabytes (EngineOptions.indexBuildMemoryMB); its files are in the data directory's
// `_tmp/`, as mongod's.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from 'bson';
import { dropSorter, useSorter } from '../storage/index-build.js';
import { ExternalSorter } from '../storage/sorter.js';
import type { Collection } from '../storage/collection.js';
import type { IndexSpec } from '../storage/index-keys.js';
import { CommandError } from '../errors.js';
import { Query } from '../query/mingo.js';
import { mingoOptions } from '../query/options.js';
import type { ReplyBody } from '../wire/codec.js';
import { errorReply } from './error-replies.js';
import { holdCommands } from './catalog-pending.js';
import type { EngineState, Handler } from './context.js';

/** Work per step of a build: what other commands wait for at most while it runs. */
const STEP_MS = 4;
/** mongod's default maxIndexBuildMemoryUsageMegabytes. */
const DEFAULT_BUILD_MEMORY_MB = 200;
/** Where builds keep their sorters' files, under the data directory. */
const TMP_DIR = '_tmp';

interface Build {
  opid: number;
  db: string;
  coll: string;
  spec: IndexSpec;
  started: number;
  /** Settles when the build has ended; rejects with what ended it otherwise. */
  done: Promise<void>;
}

/** The builds under way, per engine, by index id. */
const running = new WeakMap<EngineState, Map<number, Build>>();
/** The builds a createIndexes reply waits for. */
const waiting = new WeakMap<object, Array<Promise<void>>>();
let nextOpid = 1;

function builds(state: EngineState): Map<number, Build> {
  let m = running.get(state);
  if (!m) running.set(state, (m = new Map()));
  return m;
}

/** Whether createIndexes builds `spec` over `coll` in the background. */
export function buildsInBackground(coll: Collection, spec: IndexSpec): boolean {
  return coll.size > 0 && spec.unique !== true && spec.prepareUnique !== true;
}

/** Registers the build of `spec` over `coll` (inside the createIndexes transaction) and has `reply` wait for it. */
export function startBuild(state: EngineState, coll: Collection, spec: IndexSpec, reply: object): void {
  const idx = coll.builds.start(spec);
  run(state, coll.dbName, coll.name, idx.id, spec);
  waitFor(state, reply, idx.id);
}

/** Has `reply` wait for the build of the index `id`, under way already. */
export function waitFor(state: EngineState, reply: object, id: number): void {
  const build = builds(state).get(id);
  if (!build) return;
  let list = waiting.get(reply);
  if (!list) waiting.set(reply, (list = []));
  list.push(build.done);
}

/** The reply of a createIndexes once the builds it started or joined have ended (their error if one failed). */
export function awaitBuilds(reply: ReplyBody): ReplyBody | Promise<ReplyBody> {
  const list = waiting.get(reply);
  if (!list) return reply;
  return Promise.all(list).then(
    () => reply,
    (e: unknown) => errorReply(e),
  );
}

/** Starts again the builds under way when the engine last stopped (their sorters' files went with that run). */
export function resumeBuilds(state: EngineState): void {
  rmSync(join(state.catalog.env.dir, TMP_DIR), { recursive: true, force: true });
  for (const coll of state.catalog.all())
    for (const idx of coll.builds.all()) run(state, coll.dbName, coll.name, idx.id, idx.spec);
}

/** Runs the build of the index `id` of db.coll step by step, then makes it one of the collection's indexes. */
function run(state: EngineState, db: string, collName: string, id: number, spec: IndexSpec): void {
  const env = state.catalog.env;
  const ns = `${db}.${collName}`;
  const target = (): Collection => {
    const coll = state.catalog.get(db, collName);
    if (coll?.builds.get(spec.name)?.id !== id)
      throw new CommandError('IndexBuildAborted', `Index build aborted: index ${spec.name} on ${ns} was dropped`);
    return coll;
  };
  // A quarter of the memory per run: two runs wait for the sorting thread while a third is sorted as strings.
  const runBytes = Math.max(
    64 << 10,
    Math.floor(((state.indexBuildMemoryMB ?? DEFAULT_BUILD_MEMORY_MB) * 2 ** 20) / 4),
  );
  const sorter = new ExternalSorter(join(env.dir, TMP_DIR, `index-${id}`), runBytes);
  useSorter(env, id, sorter);
  const steps = async (): Promise<void> => {
    let finished = false;
    let failed = false;
    const commits: Array<Promise<void>> = [];
    // The next step is queued as soon as this one has run (not committed): the build takes part in every commit.
    while (!finished && !failed) {
      await sorter.whenReady();
      // A build started over waits for the entries of its earlier start, deleted in the background.
      if (target().builds.waitsForReclaim(spec.name)) await new Promise((resolve) => setTimeout(resolve, 20));
      let ran!: () => void;
      const hasRun = new Promise<void>((resolve) => (ran = resolve));
      const step = (): void => {
        try {
          finished = target().builds.step(spec.name, performance.now() + STEP_MS);
        } catch (e) {
          failed = true;
          throw e;
        }
      };
      const commit = env.writeAsync(step, ran);
      // Refused before it ran (the engine is closing): no `ran`; the error is the build's.
      commit.catch(() => ((failed = true), ran()));
      commits.push(commit);
      await hasRun;
    }
    await Promise.all(commits);
    await holdCommands(
      state,
      env.writeAsync(() => target().builds.finish(spec.name)),
    );
  };
  // Started in a later turn: createIndexes registers the build inside its own transaction.
  const done = new Promise((resolve) => setImmediate(resolve)).then(steps).catch(async (e: unknown) => {
    if (!(e instanceof CommandError && e.codeName === 'IndexBuildAborted'))
      await env
        .writeAsync(() => state.catalog.get(db, collName)?.builds.abort(spec.name))
        .catch(() => undefined /* the engine is closing: the build continues at its next start */);
    state.log('index build ended', { ns, index: spec.name, error: String(e) });
    throw e;
  });
  done.catch(() => undefined); // a build nobody waits for (resumed at start) fails quietly, logged above
  const all = builds(state);
  all.set(id, { opid: nextOpid++, db, coll: collName, spec, started: Date.now(), done });
  void done
    .finally(() => {
      all.delete(id);
      dropSorter(env, id);
      return sorter.close();
    })
    .catch(() => undefined);
}

/** An operation of currentOp for a build under way, in MongoDB's shape. */
function buildOp(state: EngineState, id: number, b: Build): Document | undefined {
  const progress = state.catalog.get(b.db, b.coll)?.builds.get(b.spec.name)?.meta.build;
  if (!progress) return undefined;
  const micros = (Date.now() - b.started) * 1000;
  // mongod's messages for the phases of a hybrid build.
  const [what, done, total] =
    progress.phase === 'scan'
      ? ['scanning collection', progress.done, progress.total]
      : progress.phase === 'load'
        ? ['inserting keys from external sorter into index', progress.loaded, progress.keys]
        : ['draining writes received during build', 0, 0];
  const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
  return {
    type: 'op',
    desc: `IndexBuildsCoordinatorMongod-${id}`,
    active: true,
    opid: b.opid,
    secs_running: Math.floor(micros / 1e6),
    microsecs_running: micros,
    op: 'command',
    ns: `${b.db}.${b.coll}`,
    command: { createIndexes: b.coll, indexes: [b.spec], $db: b.db },
    msg: `Index Build: ${what} Index Build: ${what}: ${done}/${total} ${pct}%`,
    progress: { done, total },
    waitingForLock: false,
  };
}

/** Fields of a currentOp command that are not a filter on the operations. */
const OPTIONS = new Set(['currentOp', '$all', '$ownOps', '$db', 'lsid', '$readPreference', '$clusterTime', 'comment']);

export const indexBuildCommands: Record<string, Handler> = {
  /** The operations under way: the index builds (commands finish within a turn of the event loop here). */
  currentOp: (ctx) => {
    const filter = Object.fromEntries(Object.entries(ctx.body).filter(([k]) => !OPTIONS.has(k)));
    const query = new Query(filter, mingoOptions());
    const inprog: Document[] = [];
    for (const [id, b] of builds(ctx.state)) {
      const op = buildOp(ctx.state, id, b);
      if (op && query.test(op)) inprog.push(op);
    }
    return { inprog, ok: 1 };
  },
};
