// TTL sweeper: periodically deletes documents whose TTL-indexed date plus expireAfterSeconds has passed.
// MongoDB's monitor runs every 60 s; the interval here is an option (default 1 s) so tests stay fast.
import type { Durability } from './commands/dispatch.js';
import type { Catalog } from './storage/catalog.js';

export class TtlSweeper {
  private readonly timer: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly catalog: Catalog,
    intervalMs: number,
    private readonly durability: Durability | undefined,
    private readonly log: (msg: string, fields?: Record<string, unknown>) => void,
  ) {
    this.timer = setInterval(() => void this.sweep(), intervalMs).unref();
  }

  /** One pass; deletions of a pass are journaled as one record like a write command's. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let removed = 0;
    try {
      for (const coll of [...this.catalog.all()]) {
        for (const idx of [...coll.indexes.values()]) {
          if (!idx.ttl) continue;
          const due: number[] = [];
          for (const [slot, at] of idx.ttl) if (at <= now) due.push(slot);
          for (const slot of due) {
            coll.remove(slot);
            removed++;
          }
        }
      }
      if (removed && this.durability) await this.durability.commit();
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
