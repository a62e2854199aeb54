// TTL sweeper: periodically deletes documents whose TTL-indexed date plus expireAfterSeconds has passed.
// MongoDB's monitor runs every 60 s; the interval here is an option (default 1 s) so tests stay fast.
// Expired documents are a key range of the TTL index (dates up to now - expireAfterSeconds), so a pass
// reads only what it deletes. A pass is one write transaction, committed and flushed off the event loop
// like a write command's.
import type { Catalog } from './storage/catalog.js';

export class TtlSweeper {
  private readonly timer: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly catalog: Catalog,
    intervalMs: number,
    private readonly log: (msg: string, fields?: Record<string, unknown>) => void,
  ) {
    this.timer = setInterval(() => void this.sweep(), intervalMs).unref();
  }

  /** One pass; returns the number of documents deleted. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let removed = 0;
    try {
      removed = await this.catalog.env.writeAsync(() => {
        let n = 0;
        for (const coll of [...this.catalog.all()]) {
          for (const idx of [...coll.indexes.values()]) {
            if (!idx.ttl) continue;
            const due = new Set(idx.expired(now));
            for (const rid of due) {
              coll.remove(rid);
              n++;
            }
          }
        }
        return n;
      });
      if (removed) await this.catalog.env.flushed();
    } catch (e) {
      this.log('ttl sweep failed', { error: String(e) });
    } finally {
      this.running = false;
    }
    return removed;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
