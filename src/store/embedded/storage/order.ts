// Order-preserving index keys, for walking an index in sort order. A key is one string per index entry:
// each field's component followed by '\0', then the slot as 12 hex digits, so plain string comparison
// (UTF-16 code units, what Array#sort and `<` use) orders entries by the fields in BSON comparison order
// and ties by slot (= natural order). Strings compare natively, which keeps a million-entry view cheap to
// sort and to search.
//
// Only the types whose BSON order is easy to encode get a component: MinKey, null/missing, numbers, strings
// without surrogates (so code-unit order is code-point order is MongoDB's UTF-8 byte order), ObjectId,
// booleans, dates and MaxKey. Anything else (embedded documents, arrays, binary, Long beyond 2^53, NaN…)
// gets the placeholder '~' at an arbitrary position; the planner does not walk a field holding such values.

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: u32[1] holds sign and exponent

/** 16 hex digits ordering like the number (IEEE 754 bits with the sign flipped, negatives inverted). */
function numberKey(n: number): string {
  f64[0] = n === 0 ? 0 : n; // -0 equals 0
  let hi = u32[1]!;
  let lo = u32[0]!;
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else hi = (hi | 0x80000000) >>> 0;
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

const SURROGATE = /[\uD800-\uDFFF]/;
const ESCAPE = /[\0\x01]/;
const ESCAPES = /[\0\x01]/g;

/** Type tags in BSON comparison order (MinKey < null < numbers < strings < … < ObjectId < bool < date < MaxKey). */
const TAG = { minKey: '1', null: '2', number: '3', string: '4', objectId: '8', boolean: '9', date: 'A', maxKey: 'Z' } as const;

/** Component of one value, or undefined when the type cannot be placed in order. */
export function orderComponent(v: unknown): string | undefined {
  if (v === null || v === undefined) return TAG.null;
  switch (typeof v) {
    case 'number':
      return Number.isNaN(v) ? undefined : TAG.number + numberKey(v);
    case 'string':
      // '\0' separates components: escape it (and the escape character) so a prefix sorts first.
      if (SURROGATE.test(v)) return undefined;
      return TAG.string + (ESCAPE.test(v) ? v.replace(ESCAPES, (c) => (c === '\0' ? '\x01\x01' : '\x01\x02')) : v);
    case 'boolean':
      return TAG.boolean + (v ? '1' : '0');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (v instanceof Date) {
    const t = v.getTime();
    return Number.isNaN(t) ? undefined : TAG.date + numberKey(t);
  }
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return TAG.objectId + (v as { toHexString(): string }).toHexString();
    case 'MinKey':
      return TAG.minKey;
    case 'MaxKey':
      return TAG.maxKey;
    default:
      return undefined;
  }
}

export const UNORDERED = '~';
export const SEP = '\0';
/** Greater than any component character (components never hold surrogates or U+FFFF escapes). */
export const TOP = '\uffff';

/** First component string of `comp`'s type and the first string past it (type bracketing of $lt/$gt). */
export function typeRange(comp: string): [string, string] {
  return [comp[0]!, String.fromCharCode(comp.charCodeAt(0) + 1)];
}

export function slotSuffix(slot: number): string {
  return slot.toString(16).padStart(12, '0');
}

export function slotOf(key: string): number {
  return parseInt(key.slice(-12), 16);
}

/** The part of a key covering its first `n` components (separators included). */
export function leadingComponents(key: string, n: number): string {
  let at = -1;
  for (let i = 0; i < n; i++) at = key.indexOf(SEP, at + 1);
  return key.slice(0, at + 1);
}

const CHUNK = 1024;

/**
 * A sorted set of unique strings in chunks of at most 2 × CHUNK: binary search over chunk ends, then in
 * the chunk; inserting or deleting moves at most one chunk's entries. Range iteration re-seeks after any
 * change, so a lazily consumed cursor survives writes between batches.
 */
export class OrderedKeys {
  private chunks: string[][] = [[]];
  private version = 0;

  static from(sorted: string[]): OrderedKeys {
    const o = new OrderedKeys();
    if (sorted.length) {
      o.chunks = [];
      for (let i = 0; i < sorted.length; i += CHUNK) o.chunks.push(sorted.slice(i, i + CHUNK));
    }
    return o;
  }

  get size(): number {
    let n = 0;
    for (const c of this.chunks) n += c.length;
    return n;
  }

  /** Index of the first chunk whose last key is >= key (chunks.length if none). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = this.chunks[mid]!;
      if (c.length && c[c.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: string): void {
    let ci = this.chunkFor(key);
    if (ci === this.chunks.length) ci--;
    const c = this.chunks[ci]!;
    const i = lowerBound(c, key);
    if (c[i] === key) return;
    c.splice(i, 0, key);
    if (c.length > 2 * CHUNK) this.chunks.splice(ci, 1, c.slice(0, CHUNK), c.slice(CHUNK));
    this.version++;
  }

  delete(key: string): void {
    const ci = this.chunkFor(key);
    const c = this.chunks[ci];
    if (!c) return;
    const i = lowerBound(c, key);
    if (c[i] !== key) return;
    c.splice(i, 1);
    if (c.length === 0 && this.chunks.length > 1) this.chunks.splice(ci, 1);
    this.version++;
  }

  /** Position of the first key >= key. */
  private seek(key: string): [number, number] {
    const ci = this.chunkFor(key);
    return ci === this.chunks.length ? [ci, 0] : [ci, lowerBound(this.chunks[ci]!, key)];
  }

  /** Position of the last key < key (chunk -1 when none). */
  private seekBefore(key: string): [number, number] {
    let [ci, i] = this.seek(key);
    i--;
    while (i < 0) {
      ci--;
      if (ci < 0) return [-1, 0];
      i = this.chunks[ci]!.length - 1;
    }
    return [ci, i];
  }

  /** Keys k with lo <= k < hi, ascending or descending. */
  *range(lo: string, hi: string, backward: boolean): Generator<string> {
    if (lo >= hi) return;
    let ver = this.version;
    let last: string | undefined;
    if (!backward) {
      let [ci, i] = this.seek(lo);
      for (;;) {
        if (ver !== this.version) {
          [ci, i] = this.seek(last === undefined ? lo : last + SEP);
          ver = this.version;
        }
        const c = this.chunks[ci];
        if (!c) return;
        if (i >= c.length) {
          ci++;
          i = 0;
          continue;
        }
        const k = c[i++]!;
        if (k >= hi) return;
        last = k;
        yield k;
      }
    }
    let [ci, i] = this.seekBefore(hi);
    for (;;) {
      if (ver !== this.version) {
        [ci, i] = this.seekBefore(last ?? hi);
        ver = this.version;
      }
      const c = this.chunks[ci];
      if (!c) return;
      if (i < 0) {
        ci--;
        i = (this.chunks[ci]?.length ?? 0) - 1;
        continue;
      }
      const k = c[i--]!;
      if (k < lo) return;
      last = k;
      yield k;
    }
  }
}

function lowerBound(a: string[], key: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
