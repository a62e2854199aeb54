// Which top-level fields of a stored document a filter or a projection needs, so that executing them can
// read those elements from the raw BSON (storage/rawdoc.ts) instead of decoding every document whole.
// Anything whose meaning can depend on other fields (or that this module does not recognise) yields
// undefined, and the caller decodes the whole document as before.
import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import { NameSet } from '../storage/rawdoc.js';

function isPlain(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function collect(filter: Document, out: Set<string>): boolean {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v)) return false;
      for (const sub of v) if (!isPlain(sub) || !collect(sub, out)) return false;
      continue;
    }
    if (k === '$comment') continue;
    // $expr, $where, $jsonSchema, $text and unknown operators may look at any field.
    if (k.startsWith('$')) return false;
    // A path resolves through its first component; the whole key covers a stored name containing dots.
    const dot = k.indexOf('.');
    out.add(dot < 0 ? k : k.slice(0, dot));
    out.add(k);
  }
  return true;
}

/** Top-level names a filter reads, or undefined when it may need the whole document. */
export function filterFields(filter: Document): NameSet | undefined {
  const out = new Set<string>();
  return collect(filter, out) ? new NameSet(out) : undefined;
}

/**
 * The names kept by an inclusion projection of top-level fields only ({a: 1, b: true}, with `_id` unless
 * `_id: 0`), or undefined for anything else: dotted paths, operators ($slice, $elemMatch, $meta),
 * exclusions, expressions, and integer-like names (which a decoded JS object would reorder).
 */
export function inclusionFields(projection: Document | undefined): NameSet | undefined {
  if (!projection) return undefined;
  const keep: string[] = [];
  let id = true;
  let explicitId = false;
  for (const [k, v] of Object.entries(projection)) {
    if (k === '_id') {
      if (v === 0 || v === false) id = false;
      else if (v === 1 || v === true) explicitId = true;
      else return undefined;
      continue;
    }
    if (v !== 1 && v !== true) return undefined;
    if (k === '' || k.includes('.') || k.startsWith('$') || /^[0-9]/.test(k)) return undefined;
    keep.push(k);
  }
  // {_id: 0} alone is an exclusion projection.
  if (keep.length === 0 && !(id && explicitId)) return undefined;
  if (id) keep.push('_id');
  return new NameSet(keep);
}

/** Refuses a projection mixing inclusion and exclusion (other than of _id), as MongoDB does. */
export function checkProjection(projection: Document | undefined): void {
  if (!projection) return;
  let mode: 'in' | 'ex' | undefined;
  for (const [k, v] of Object.entries(projection)) {
    if (k === '_id' || (typeof v !== 'number' && typeof v !== 'boolean')) continue;
    const m = v ? 'in' : 'ex';
    if (!mode) mode = m;
    else if (m !== mode) {
      if (mode === 'in')
        throw new CommandError('Location31254', `Cannot do exclusion on field ${k} in inclusion projection`);
      throw new CommandError('Location31253', `Cannot do inclusion on field ${k} in exclusion projection`);
    }
  }
}
