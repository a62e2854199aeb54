// Sorting find results by extracted sort keys instead of whole documents: only the key values and a
// reference to the stored bytes are held, and with a limit only the best skip+limit entries are kept
// (amortised top-k), so sorting a million-document collection does not decode it all into memory at once.
// Values compare in MongoDB's BSON order (mingo's own order puts ObjectIds after dates), which is also
// the order of the index walks in plan.ts (storage/order.ts encodes the same order as strings).
import type { Document } from 'bson';
import { compare as mingoCompare, resolve } from 'mingo/util';
import { CommandError } from '../errors.js';
import { compareNumbers } from '../storage/keys.js';

export type SortFields = Array<[string, 1 | -1]>;

export function parseSort(sort: Document): SortFields {
  const out: SortFields = [];
  for (const [field, dir] of Object.entries(sort)) {
    if (field === '$natural') continue; // natural order is what the scan already yields
    if (dir === 1 || dir === -1) out.push([field, dir]);
    else if (typeof dir === 'number' && dir !== 0) out.push([field, dir > 0 ? 1 : -1]);
    else throw new CommandError('BadValue', `$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
  }
  return out;
}

/** BSON type classes in comparison order (numbers of every width share one, as do strings and symbols). */
function rank(v: unknown): number {
  if (v === undefined) return 0; // an empty array's sort key: before null
  if (v === null) return 2;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
    case 'object':
      break;
    default:
      return 14;
  }
  if (v instanceof Date) return 10;
  if (v instanceof RegExp) return 12;
  if (Array.isArray(v)) return 6;
  switch ((v as { _bsontype?: string })._bsontype) {
    case undefined:
      return 5;
    case 'MinKey':
      return 1;
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return 3;
    case 'BSONSymbol':
      return 4;
    case 'Binary':
      return 7;
    case 'ObjectId':
      return 8;
    case 'Timestamp':
      return 11;
    case 'BSONRegExp':
      return 12;
    case 'MaxKey':
      return 13;
    default:
      return 14;
  }
}

/** Strings by code point (MongoDB compares UTF-8 bytes); code units differ only around surrogates. */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Two values in MongoDB's BSON comparison order. */
export function compare(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3: {
      if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b))
        return a < b ? -1 : a > b ? 1 : 0;
      return compareNumbers(a, b); // by exact value across types, NaN first
    }
    case 4:
      return compareStrings(String(a), String(b));
    case 8: {
      const x = (a as { toHexString(): string }).toHexString();
      const y = (b as { toHexString(): string }).toHexString();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 9:
      return a === b ? 0 : a ? 1 : -1;
    case 10: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 1:
    case 2:
    case 13:
      return 0;
    case 5:
      return compareDocuments(a as Record<string, unknown>, b as Record<string, unknown>);
    case 6:
      return compareArrays(a as unknown[], b as unknown[]);
    case 7:
      return compareBinary(
        a as { buffer: Uint8Array; sub_type: number },
        b as { buffer: Uint8Array; sub_type: number },
      );
    case 11: {
      const x = BigInt.asUintN(64, (a as { toBigInt(): bigint }).toBigInt?.() ?? 0n);
      const y = BigInt.asUintN(64, (b as { toBigInt(): bigint }).toBigInt?.() ?? 0n);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    default:
      return mingoCompare(a, b);
  }
}

/** Embedded documents field by field: each pair by value type, then name, then value; a prefix first. */
function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const r = rank(va) - rank(vb);
    if (r !== 0) return r < 0 ? -1 : 1;
    const names = compareStrings(ka[i]!, kb[i]!);
    if (names !== 0) return names;
    const c = compare(va, vb);
    if (c !== 0) return c;
  }
  return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
}

/** Arrays element by element, a prefix first (as whole values: accumulators, $min/$max, equality order). */
function compareArrays(a: unknown[], b: unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compare(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Binary data: by length, then subtype, then bytes. */
function compareBinary(
  a: { buffer: Uint8Array; sub_type: number },
  b: { buffer: Uint8Array; sub_type: number },
): number {
  if (a.buffer.length !== b.buffer.length) return a.buffer.length < b.buffer.length ? -1 : 1;
  if (a.sub_type !== b.sub_type) return a.sub_type < b.sub_type ? -1 : 1;
  return Buffer.compare(a.buffer, b.buffer);
}

/** Sort key of one field: arrays sort by their smallest (ascending) or largest (descending) element. */
function fieldKey(doc: Document, field: string, dir: 1 | -1): unknown {
  const v: unknown = resolve(doc, field);
  if (v === undefined) return null; // missing sorts like null
  if (!Array.isArray(v)) return v;
  if (v.length === 0) return undefined; // an empty array sorts before null
  let best: unknown = v[0];
  for (const x of v) if (compare(x, best) * dir < 0) best = x;
  return best ?? null;
}

export function sortKey(doc: Document, fields: SortFields): unknown[] {
  return fields.map(([f, d]) => fieldKey(doc, f, d));
}

export function compareKeys(a: unknown[], b: unknown[], fields: SortFields): number {
  for (let i = 0; i < fields.length; i++) {
    const c = compare(a[i], b[i]);
    if (c !== 0) return c * fields[i]![1];
  }
  return 0;
}

/**
 * Collects entries and returns them sorted (stable), keeping only the first `keep` when finite: once that many
 * are kept, an entry that sorts at or after the last kept one is dropped with one comparison (a later entry
 * equal to it comes after it in a stable sort).
 */
export class KeySorter<T> {
  private entries: Array<{ key: unknown[]; value: T }> = [];
  /** The key of the last entry kept at the latest trim, when `keep` entries were kept. */
  private bound: unknown[] | undefined;

  constructor(
    private readonly fields: SortFields,
    private readonly keep = Infinity,
  ) {}

  add(key: unknown[], value: T): void {
    if (this.bound && compareKeys(key, this.bound, this.fields) >= 0) return;
    this.entries.push({ key, value });
    if (Number.isFinite(this.keep) && this.entries.length > 2 * this.keep + 64) this.trim();
  }

  private trim(): void {
    this.entries.sort((a, b) => compareKeys(a.key, b.key, this.fields));
    if (this.entries.length >= this.keep && this.keep > 0) {
      this.entries.length = this.keep;
      this.bound = this.entries[this.keep - 1]!.key;
    }
  }

  sorted(): T[] {
    this.trim();
    return this.entries.map((e) => e.value);
  }
}
