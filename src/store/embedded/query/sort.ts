// Sorting find results by extracted sort keys instead of whole documents: only the key values and a
// reference to the stored bytes are held, and with a limit only the best skip+limit entries are kept
// (amortised top-k), so sorting a million-document collection does not decode it all into memory at once.
import type { Document } from 'bson';
import { compare, resolve } from 'mingo/util';
import { CommandError } from '../commands/errors.js';

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

/** Collects entries and returns them sorted (stable), keeping only the first `keep` when finite. */
export class KeySorter<T> {
  private entries: Array<{ key: unknown[]; value: T }> = [];

  constructor(
    private readonly fields: SortFields,
    private readonly keep = Infinity,
  ) {}

  add(key: unknown[], value: T): void {
    this.entries.push({ key, value });
    if (Number.isFinite(this.keep) && this.entries.length > 2 * this.keep + 1024) this.trim();
  }

  private trim(): void {
    this.entries.sort((a, b) => compareKeys(a.key, b.key, this.fields));
    if (this.entries.length > this.keep) this.entries.length = this.keep;
  }

  sorted(): T[] {
    this.trim();
    return this.entries.map((e) => e.value);
  }
}
