// Compact document memory: documents are copied into shared slabs (large buffers) and referenced by views,
// instead of one malloc'd buffer per document, which costs several hundred bytes of allocator and
// ArrayBuffer overhead each. Freed space is reclaimed by relocating the live documents of sparse slabs
// (views are immutable, so readers holding an old view keep a consistent copy until they let go).

const MIN_SLAB = 16 << 10;
const MAX_SLAB = 4 << 20;
/** Relocate when less than this fraction of the retired slab bytes is still live. */
const SPARSE = 0.5;

interface Slab {
  size: number;
  live: number;
}

export class SlabStore {
  private current: Buffer;
  private offset = 0;
  private readonly slabs = new Map<ArrayBufferLike, Slab>();
  /** Bytes of full (non-current) slabs, and how many of them are live. */
  private retiredBytes = 0;
  private retiredLive = 0;

  constructor() {
    this.current = this.newSlab(MIN_SLAB);
  }

  private newSlab(size: number): Buffer {
    const b = Buffer.allocUnsafeSlow(size);
    this.slabs.set(b.buffer, { size, live: 0 });
    return b;
  }

  /** Copies `bytes` into slab memory and returns the stored view. */
  alloc(bytes: Uint8Array): Buffer {
    const len = bytes.length;
    if (len > MAX_SLAB / 4) {
      const own = Buffer.allocUnsafeSlow(len); // big documents get their own buffer, untracked
      own.set(bytes);
      return own;
    }
    if (this.offset + len > this.current.length) {
      const done = this.slabs.get(this.current.buffer)!;
      this.retiredBytes += done.size;
      this.retiredLive += done.live;
      // At least as large as the document: one bigger than the doubled slab (up to MAX_SLAB / 4) must fit.
      this.current = this.newSlab(Math.min(MAX_SLAB, Math.max(MIN_SLAB, this.current.length * 2, len)));
      this.offset = 0;
    }
    this.current.set(bytes, this.offset);
    const view = this.current.subarray(this.offset, this.offset + len);
    this.offset += len;
    this.slabs.get(this.current.buffer)!.live += len;
    return view;
  }

  free(view: Buffer): void {
    const slab = this.slabs.get(view.buffer);
    if (!slab) return;
    slab.live -= view.length;
    if (view.buffer !== this.current.buffer) {
      this.retiredLive -= view.length;
      if (slab.live === 0) {
        this.slabs.delete(view.buffer);
        this.retiredBytes -= slab.size;
      }
    }
  }

  /** True when enough retired slab memory is dead that relocating is worthwhile. */
  get needsCompaction(): boolean {
    return this.retiredBytes > 8 * MAX_SLAB && this.retiredLive < this.retiredBytes * SPARSE;
  }

  /** Moves documents out of sparse retired slabs; `docs` is the owner's slot map, updated in place. */
  compact(docs: Map<number, Buffer>): void {
    const sparse = new Set<ArrayBufferLike>();
    for (const [ab, s] of this.slabs) if (ab !== this.current.buffer && s.live < s.size * SPARSE) sparse.add(ab);
    if (sparse.size === 0) return;
    for (const [slot, view] of docs) {
      if (!sparse.has(view.buffer)) continue;
      const moved = this.alloc(view);
      this.free(view);
      docs.set(slot, moved);
    }
  }

  /** Total bytes held in slabs (for stats). */
  get reservedBytes(): number {
    let n = 0;
    for (const s of this.slabs.values()) n += s.size;
    return n;
  }
}
