// Durability orchestration for a dbPath: recovery at open, the operation log while running (one fsync'd
// record per write command before its reply), and compaction (snapshot + dropping covered logs) when the
// log outgrows a threshold and on clean close.
import { closeSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../storage/catalog.js';
import type { Durability } from '../commands/dispatch.js';
import { OpLog } from './oplog.js';
import { logName, recover } from './recovery.js';
import { capture, fsyncDir, writeSnapshot } from './snapshot.js';

export interface PersistenceOptions {
  log: (msg: string, fields?: Record<string, unknown>) => void;
  compactLogBytes?: number;
}

export class Persistence implements Durability {
  private compacting: Promise<void> | undefined;
  /** Bytes in earlier log generations not yet covered by a snapshot. */
  private olderLogBytes: number;
  private snapshotBytes = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly catalog: Catalog,
    private gen: number,
    private readonly oplog: OpLog,
    replayedBytes: number,
    private readonly opts: PersistenceOptions,
  ) {
    this.olderLogBytes = replayedBytes;
  }

  static async open(dir: string, catalog: Catalog, opts: PersistenceOptions): Promise<Persistence> {
    mkdirSync(dir, { recursive: true });
    lock(dir);
    const started = Date.now();
    const rec = recover(dir, catalog, opts.log);
    const oplog = new OpLog(OpLog.openFile(join(dir, logName(rec.nextGen))));
    fsyncDir(dir);
    const p = new Persistence(dir, catalog, rec.nextGen, oplog, rec.logBytes, opts);
    catalog.sink = oplog;
    opts.log('recovered', { dbPath: dir, documents: rec.documents, replayedLogBytes: rec.logBytes, ms: Date.now() - started });
    return p;
  }

  async commit(): Promise<void> {
    await this.oplog.commit();
    const threshold = this.opts.compactLogBytes ?? 64 << 20;
    const logBytes = this.olderLogBytes + this.oplog.bytes;
    if (!this.compacting && !this.closed && logBytes > threshold && logBytes > this.snapshotBytes / 2) {
      void this.compact().catch((e: unknown) => this.opts.log('compaction failed', { error: String(e) }));
    }
  }

  /** Rotates the log, snapshots the state as of the rotation, then deletes the covered log files. */
  compact(): Promise<void> {
    this.compacting ??= (async () => {
      while (!this.oplog.idle) await this.oplog.drain();
      // Synchronous from here to capture(): no command can run between the rotation and the image.
      const newGen = this.gen + 1;
      const oldFd = this.oplog.swap(OpLog.openFile(join(this.dir, logName(newGen))));
      const image = capture(this.catalog);
      this.gen = newGen;
      this.olderLogBytes = 0;
      closeSync(oldFd);
      const started = Date.now();
      this.snapshotBytes = await writeSnapshot(this.dir, image, newGen);
      for (const f of readdirSync(this.dir)) {
        const m = /^oplog\.(\d+)\.log$/.exec(f);
        if (m && Number(m[1]) < newGen) unlinkSync(join(this.dir, f));
      }
      fsyncDir(this.dir);
      this.opts.log('compacted', { bytes: this.snapshotBytes, ms: Date.now() - started });
    })().finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.compacting) await this.compacting.catch(() => undefined);
    await this.oplog.drain();
    if (this.olderLogBytes + this.oplog.bytes > 0) await this.compact();
    this.catalog.sink = undefined;
    this.oplog.close();
    unlinkSync(join(this.dir, LOCK_FILE));
  }
}

const LOCK_FILE = 'engine.lock';

/** Refuses a dbPath another live engine process holds; a lock left by a crashed process is taken over. */
function lock(dir: string): void {
  const path = join(dir, LOCK_FILE);
  let holder = NaN;
  try {
    holder = Number(readFileSync(path, 'utf8').trim());
  } catch {
    // no lock file
  }
  if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
    throw new Error(`dbPath ${dir} is in use by process ${holder}`);
  }
  writeFileSync(path, `${process.pid}\n`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
