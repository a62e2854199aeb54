// Postings of one index key prefix: encoded key -> slot, or several slots for non-unique keys.
// ObjectId keys (by far the most common _id and reference type) live in an open-addressing table over
// typed arrays holding the 12 id bytes inline: a lookup touches one or two cache lines, where a Map with
// string keys chases several pointers and becomes an order of magnitude slower at millions of entries.
// Every other key type uses a Map.

const EMPTY = 0;
const USED = 1;
const DELETED = 2;

export type Posting = number | Set<number>;

export class Postings {
  private readonly other = new Map<string, Posting>();
  private cap = 0;
  private mask = 0;
  private state = new Uint8Array(0);
  private ids = new Int32Array(0); // 3 words per position
  private vals = new Float64Array(0); // slot, or -(index into sets) - 1
  private sets: Array<Set<number> | undefined> = [];
  private freeSets: number[] = [];
  private used = 0;
  private deleted = 0;

  get(key: string): Posting | undefined {
    if (!isOid(key)) return this.other.get(key);
    const p = this.find(key);
    return p < 0 ? undefined : this.value(p);
  }

  add(key: string, slot: number): void {
    if (!isOid(key)) {
      const cur = this.other.get(key);
      if (cur === undefined) this.other.set(key, slot);
      else if (typeof cur === 'number') {
        if (cur !== slot) this.other.set(key, new Set([cur, slot]));
      } else cur.add(slot);
      return;
    }
    const p = this.find(key);
    if (p >= 0) {
      const v = this.vals[p]!;
      if (v >= 0) {
        if (v !== slot) this.vals[p] = this.newSet(v, slot);
      } else this.sets[-v - 1]!.add(slot);
      return;
    }
    if ((this.used + this.deleted + 1) * 2 > this.cap) this.resize(Math.max(1024, (this.used + 1) * 4));
    const [a, b, c] = words(key);
    let q = hash(a, b, c) & this.mask;
    while (this.state[q] === USED) q = (q + 1) & this.mask;
    if (this.state[q] === DELETED) this.deleted--;
    this.state[q] = USED;
    this.ids[q * 3] = a;
    this.ids[q * 3 + 1] = b;
    this.ids[q * 3 + 2] = c;
    this.vals[q] = slot;
    this.used++;
  }

  remove(key: string, slot: number): void {
    if (!isOid(key)) {
      const cur = this.other.get(key);
      if (cur === undefined) return;
      if (typeof cur === 'number') {
        if (cur === slot) this.other.delete(key);
      } else {
        cur.delete(slot);
        if (cur.size === 1) this.other.set(key, cur.values().next().value as number);
        else if (cur.size === 0) this.other.delete(key);
      }
      return;
    }
    const p = this.find(key);
    if (p < 0) return;
    const v = this.vals[p]!;
    if (v >= 0) {
      if (v !== slot) return;
      this.state[p] = DELETED;
      this.used--;
      this.deleted++;
      return;
    }
    const set = this.sets[-v - 1]!;
    set.delete(slot);
    if (set.size > 1) return;
    this.sets[-v - 1] = undefined;
    this.freeSets.push(-v - 1);
    this.vals[p] = set.values().next().value as number;
  }

  private value(p: number): Posting {
    const v = this.vals[p]!;
    return v >= 0 ? v : this.sets[-v - 1]!;
  }

  private newSet(a: number, b: number): number {
    const i = this.freeSets.pop() ?? this.sets.length;
    this.sets[i] = new Set([a, b]);
    return -i - 1;
  }

  private find(key: string): number {
    if (this.cap === 0) return -1;
    const [a, b, c] = words(key);
    for (let q = hash(a, b, c) & this.mask; this.state[q] !== EMPTY; q = (q + 1) & this.mask) {
      if (this.state[q] === USED && this.ids[q * 3] === a && this.ids[q * 3 + 1] === b && this.ids[q * 3 + 2] === c) return q;
    }
    return -1;
  }

  private resize(minCap: number): void {
    let cap = 1024;
    while (cap < minCap) cap *= 2;
    const { state, ids, vals } = this;
    this.cap = cap;
    this.mask = cap - 1;
    this.state = new Uint8Array(cap);
    this.ids = new Int32Array(cap * 3);
    this.vals = new Float64Array(cap);
    this.deleted = 0;
    for (let p = 0; p < state.length; p++) {
      if (state[p] !== USED) continue;
      const a = ids[p * 3]!;
      const b = ids[p * 3 + 1]!;
      const c = ids[p * 3 + 2]!;
      let q = hash(a, b, c) & this.mask;
      while (this.state[q] === USED) q = (q + 1) & this.mask;
      this.state[q] = USED;
      this.ids[q * 3] = a;
      this.ids[q * 3 + 1] = b;
      this.ids[q * 3 + 2] = c;
      this.vals[q] = vals[p]!;
    }
  }
}

/** Encoded ObjectId keys are 'o' + 24 lowercase hex digits (see keys.ts). */
function isOid(key: string): boolean {
  return key.length === 25 && key.charCodeAt(0) === 111; // 'o'
}

function words(key: string): [number, number, number] {
  return [parseInt(key.slice(1, 9), 16) | 0, parseInt(key.slice(9, 17), 16) | 0, parseInt(key.slice(17, 25), 16) | 0];
}

function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}
