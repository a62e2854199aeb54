// Applies update documents: operator updates (through mingo's updater, plus $setOnInsert which mingo
// lacks), replacement documents and pipeline updates; builds upsert seed documents from filters.
import { ObjectId } from 'bson';
import type { Document } from 'bson';
import { Aggregator, update as mingoUpdate } from 'mingo';
import { setValue } from 'mingo/util';
import type { AnyObject } from 'mingo/types';
import { CommandError } from '../commands/errors.js';
import { encodeKey } from '../storage/keys.js';
import { withIdFirst } from '../storage/bsonio.js';
import { mingoOptions, type QueryExtras } from './options.js';

export type UpdateSpec = Document | Document[];

export function isOperatorUpdate(u: UpdateSpec): boolean {
  if (Array.isArray(u)) return false;
  const keys = Object.keys(u);
  return keys.length > 0 && keys[0]!.startsWith('$');
}

function checkReplacement(u: Document): void {
  for (const k of Object.keys(u)) {
    if (k.startsWith('$')) throw new CommandError('BadValue', `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`);
  }
}

function checkId(before: unknown, after: unknown): void {
  if (encodeKey(before) !== encodeKey(after)) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
}

/**
 * Returns the updated document (a new object; `doc` may be mutated). `inserting` marks the upsert-insert
 * case, where $setOnInsert applies and the positional operator has no matched array element.
 */
export function applyUpdate(
  doc: Document,
  u: UpdateSpec,
  opts: { filter?: Document; arrayFilters?: Document[]; inserting?: boolean; extras?: QueryExtras },
): Document {
  const id = doc._id;
  let out: Document;
  if (Array.isArray(u)) {
    out = new Aggregator(u as AnyObject[], mingoOptions(opts.extras)).run([doc])[0] as Document;
  } else if (isOperatorUpdate(u)) {
    const mod: Document = {};
    for (const [op, args] of Object.entries(u as Document)) {
      if (!op.startsWith('$')) throw new CommandError('FailedToParse', `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`);
      if (op === '$setOnInsert') {
        if (opts.inserting) mod.$set = { ...(mod.$set as Document | undefined), ...(args as Document) };
        continue;
      }
      if (op === '$set') mod.$set = { ...(mod.$set as Document | undefined), ...(args as Document) };
      else mod[op] = args;
    }
    // MongoDB lets an upsert's insert set `_id` through $set/$setOnInsert; mingo's updater refuses any
    // write to `_id`, so the insert path sets it on the document directly.
    if (opts.inserting && doc._id === undefined && mod.$set && '_id' in (mod.$set as Document)) {
      const { _id: newId, ...rest } = mod.$set as Document;
      doc._id = newId;
      if (Object.keys(rest).length) mod.$set = rest;
      else delete mod.$set;
    }
    try {
      if (Object.keys(mod).length) {
        mingoUpdate(doc as AnyObject, mod, opts.arrayFilters as AnyObject[] | undefined, opts.inserting ? undefined : opts.filter, {
          cloneMode: 'deep',
          queryOptions: mingoOptions(opts.extras),
        });
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (msg.includes("immutable field '_id'")) throw new CommandError('ImmutableField', msg.replace(/\.$/, ''));
      if (/Unknown update operator|unknown.*operator/i.test(msg)) {
        const op = /'(\$\w+)'/.exec(msg)?.[1] ?? msg;
        throw new CommandError('FailedToParse', `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`);
      }
      throw new CommandError('BadValue', msg);
    }
    out = doc;
  } else {
    u = u as Document;
    checkReplacement(u);
    if (u._id !== undefined && id !== undefined) checkId(id, u._id);
    const { _id: _ignored, ...rest } = u;
    out = { _id: id ?? u._id, ...rest };
    if (out._id === undefined) delete out._id;
  }
  if (id !== undefined) checkId(id, out._id);
  return out;
}

/** Equality fields of a filter, as the seed document of an upsert (MongoDB's "query predicate fields"). */
export function seedFromFilter(filter: Document, seed: Document = {}): Document {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) seedFromFilter(sub as Document, seed);
      continue;
    }
    if (k.startsWith('$')) continue;
    const isOps = v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && Object.keys(v).some((x) => x.startsWith('$'));
    if (!isOps) setValue(seed, k, v);
    else if ('$eq' in (v as Document)) setValue(seed, k, (v as Document).$eq);
    else if (Array.isArray((v as Document).$in) && ((v as Document).$in as unknown[]).length === 1) setValue(seed, k, ((v as Document).$in as unknown[])[0]);
  }
  return seed;
}

/** The document an upsert inserts: seed from the filter (or replacement), update applied, _id first. */
export function upsertDocument(filter: Document, u: UpdateSpec, arrayFilters?: Document[], extras?: QueryExtras): Document {
  let doc: Document;
  if (isOperatorUpdate(u) || Array.isArray(u)) {
    doc = applyUpdate(seedFromFilter(filter), u, { arrayFilters, inserting: true, extras });
  } else {
    const seed = seedFromFilter(filter);
    doc = applyUpdate(seed._id !== undefined ? { _id: seed._id } : {}, u, { inserting: true });
  }
  if (doc._id === undefined) doc._id = new ObjectId();
  return withIdFirst(doc);
}
