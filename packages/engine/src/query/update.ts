// Applies update documents: operator updates (through mingo's updater, plus $setOnInsert which mingo
// lacks), replacement documents and pipeline updates; builds upsert seed documents from filters.
import { ObjectId } from 'bson';
import type { Document } from 'bson';
import { update as mingoUpdate } from 'mingo';
import { Aggregator } from './mingo.js';
import { setValue } from 'mingo/util';
import type { AnyObject } from 'mingo/types';
import { CommandError } from '../errors.js';
import { encodeKey } from '../storage/keys.js';
import { withIdFirst } from '../storage/bsonio.js';
import { mingoOptions, type QueryExtras } from './options.js';
import { decimalArithmetic, isDecimal } from './decimal.js';
import { compare } from './sort.js';
import { withBsonTypes } from './types.js';

export type UpdateSpec = Document | Document[];

export function isOperatorUpdate(u: UpdateSpec): boolean {
  if (Array.isArray(u)) return false;
  const keys = Object.keys(u);
  return keys.length > 0 && keys[0]!.startsWith('$');
}

const NUMERIC_OPS = new Set(['$inc', '$mul']);

/** MongoDB's update operators. */
const UPDATE_OPERATORS = new Set([
  '$currentDate',
  '$inc',
  '$min',
  '$max',
  '$mul',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
  '$addToSet',
  '$pop',
  '$pull',
  '$push',
  '$pullAll',
  '$bit',
]);

/**
 * What MongoDB refuses when it parses an update, before it looks for a document: an unknown operator or
 * a field among the operators, and an operator whose argument is not a document (FailedToParse, 9).
 */
export function checkUpdateSpec(u: UpdateSpec): void {
  if (!isOperatorUpdate(u)) return;
  for (const [op, args] of Object.entries(u as Document)) {
    if (!UPDATE_OPERATORS.has(op))
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (
      !args ||
      typeof args !== 'object' ||
      Array.isArray(args) ||
      '_bsontype' in args ||
      args instanceof Date ||
      args instanceof RegExp
    ) {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeName(args)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${JSON.stringify(args) ?? String(args)}}`,
      );
    }
  }
}

function isNumber(v: unknown): boolean {
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  return (
    typeof v === 'number' ||
    typeof v === 'bigint' ||
    t === 'Long' ||
    t === 'Decimal128' ||
    t === 'Int32' ||
    t === 'Double'
  );
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  return typeof v === 'object' ? ((v as { _bsontype?: string })._bsontype ?? 'object') : typeof v;
}

/**
 * What MongoDB refuses before touching the document: two operators on the same or nested paths (40),
 * $inc/$mul on a value that is not a number (14), and a path through a scalar (28).
 */
function checkOperators(doc: Document, mod: Document): void {
  const seen: string[] = [];
  for (const [op, args] of Object.entries(mod)) {
    if (!args || typeof args !== 'object') continue;
    for (const path of Object.keys(args as Document)) {
      const clash = seen.find((p) => p === path || p.startsWith(`${path}.`) || path.startsWith(`${p}.`));
      if (clash !== undefined)
        throw new CommandError(
          'ConflictingUpdateOperators',
          `Updating the path '${path}' would create a conflict at '${clash.length < path.length ? clash : path}'`,
        );
      seen.push(path);
      if (path.includes('$')) continue; // positional paths are resolved by the updater
      const parts = path.split('.');
      let cur: unknown = doc;
      for (let i = 0; i < parts.length; i++) {
        if (cur === null || cur === undefined) break;
        if (typeof cur !== 'object' || cur instanceof Date || '_bsontype' in (cur as object)) {
          if (op === '$unset' || op === '$pull' || op === '$pullAll' || op === '$pop') break;
          throw new CommandError(
            'PathNotViable',
            `Cannot create field '${parts[i]}' in element {${parts[i - 1]}: ${JSON.stringify(cur)}}`,
          );
        }
        cur = Array.isArray(cur) && !/^\d+$/.test(parts[i]!) ? undefined : (cur as Document)[parts[i]!];
        if (i === parts.length - 1 && NUMERIC_OPS.has(op) && cur !== undefined && !isNumber(cur)) {
          throw new CommandError(
            'TypeMismatch',
            `Cannot apply ${op} to a value of non-numeric type. {_id: ${JSON.stringify(doc._id)}} has the field '${parts[i]}' of non-numeric type ${typeName(cur)}`,
          );
        }
      }
    }
  }
}

/**
 * $min/$max compare in BSON order across types (mingo's updater does not: it puts ObjectIds after dates and
 * compares strings by UTF-16 code units), so each plain path becomes a $set of the operand when it wins, or
 * nothing. Positional paths are left to the updater.
 */
function minMax(doc: Document, op: '$min' | '$max', args: Document, mod: Document): void {
  const rest: Document = {};
  for (const [path, operand] of Object.entries(args)) {
    if (path.includes('$')) {
      rest[path] = operand;
      continue;
    }
    const cur = valueAt(doc, path);
    const c = cur === undefined ? (op === '$min' ? -1 : 1) : compare(operand, cur);
    if ((op === '$min' && c < 0) || (op === '$max' && c > 0))
      mod.$set = { ...(mod.$set as Document | undefined), [path]: operand };
  }
  if (Object.keys(rest).length) mod[op] = rest;
}

function valueAt(doc: Document, path: string): unknown {
  let cur: unknown = doc;
  for (const p of path.split('.'))
    cur = cur !== null && typeof cur === 'object' && !(cur instanceof Date) ? (cur as Document)[p] : undefined;
  return cur;
}

/**
 * $inc/$mul where the field or the operand is a Decimal128: computed here (query/decimal.ts) and set, since
 * mingo's updater only does JavaScript arithmetic. Other paths (and positional ones) stay with the updater.
 */
function decimalOps(doc: Document, op: '$inc' | '$mul', args: Document, mod: Document): void {
  const rest: Document = {};
  for (const [path, operand] of Object.entries(args)) {
    const cur = path.includes('$') ? undefined : valueAt(doc, path);
    const numeric = cur === undefined || typeof cur === 'number' || isDecimal(cur);
    if (
      path.includes('$') ||
      !numeric ||
      !(isDecimal(cur) || isDecimal(operand)) ||
      !(typeof operand === 'number' || isDecimal(operand))
    ) {
      rest[path] = operand;
      continue;
    }
    const value =
      cur === undefined
        ? op === '$inc'
          ? decimalArithmetic('$inc', 0, operand)
          : decimalArithmetic('$mul', 0, operand)
        : decimalArithmetic(op, cur, operand);
    mod.$set = { ...(mod.$set as Document | undefined), [path]: value };
  }
  if (Object.keys(rest).length) mod[op] = { ...(mod[op] as Document | undefined), ...rest };
}

/** The document already matched; mingo re-tests the filter only to find the element a positional `$` names. */
function positional(mod: Document): boolean {
  return Object.values(mod).some(
    (args) => args && typeof args === 'object' && Object.keys(args as Document).some((k) => /\.\$(\.|$)/.test(k)),
  );
}

function checkReplacement(u: Document): void {
  for (const k of Object.keys(u)) {
    if (k.startsWith('$'))
      throw new CommandError(
        'BadValue',
        `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
  }
}

function checkId(before: unknown, after: unknown): void {
  if (encodeKey(before) !== encodeKey(after)) {
    throw new CommandError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
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
    // A pipeline that drops _id (e.g. $replaceRoot) keeps the document's _id, as MongoDB does.
    if (out._id === undefined && id !== undefined) out = { _id: id, ...out };
  } else if (isOperatorUpdate(u)) {
    const mod: Document = {};
    for (const [op, args] of Object.entries(u as Document)) {
      if (!op.startsWith('$'))
        throw new CommandError(
          'FailedToParse',
          `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
        );
      if (op === '$setOnInsert') {
        if (opts.inserting) mod.$set = { ...(mod.$set as Document | undefined), ...(args as Document) };
        continue;
      }
      if (op === '$set') mod.$set = { ...(mod.$set as Document | undefined), ...(args as Document) };
      else if ((op === '$min' || op === '$max') && args && typeof args === 'object')
        minMax(doc, op, args as Document, mod);
      else if ((op === '$inc' || op === '$mul') && args && typeof args === 'object')
        decimalOps(doc, op, args as Document, mod);
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
    checkOperators(doc, u as Document);
    try {
      if (Object.keys(mod).length) {
        mingoUpdate(
          doc as AnyObject,
          mod,
          opts.arrayFilters as AnyObject[] | undefined,
          opts.inserting || !positional(mod) ? undefined : opts.filter,
          {
            cloneMode: 'deep',
            queryOptions: mingoOptions(opts.extras),
          },
        );
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (msg.includes("immutable field '_id'")) throw new CommandError('ImmutableField', msg.replace(/\.$/, ''));
      if (/Unknown update operator|unknown.*operator/i.test(msg)) {
        const op = /'(\$\w+)'/.exec(msg)?.[1] ?? msg;
        throw new CommandError(
          'FailedToParse',
          `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
        );
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
function seedFromFilter(filter: Document, seed: Document = {}): Document {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) seedFromFilter(sub as Document, seed);
      continue;
    }
    if (k.startsWith('$')) continue;
    if (isRegex(v)) continue; // a pattern is not an equality: nothing to seed
    const isOps =
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      !(v instanceof Date) &&
      Object.keys(v).some((x) => x.startsWith('$'));
    if (!isOps) setValue(seed, k, v);
    else if ('$eq' in (v as Document)) setValue(seed, k, (v as Document).$eq);
    else if (
      Array.isArray((v as Document).$in) &&
      ((v as Document).$in as unknown[]).length === 1 &&
      !isRegex(((v as Document).$in as unknown[])[0])
    )
      setValue(seed, k, ((v as Document).$in as unknown[])[0]);
  }
  return seed;
}

function isRegex(v: unknown): boolean {
  return (
    v instanceof RegExp ||
    (typeof v === 'object' && v !== null && (v as { _bsontype?: string })._bsontype === 'BSONRegExp')
  );
}

/**
 * The document an upsert inserts: seed from the filter (or replacement), update applied, _id first. `typed`:
 * the filter and update as sent (numbers as BSON type objects), so the inserted values keep their types.
 */
export function upsertDocument(
  filter: Document,
  u: UpdateSpec,
  arrayFilters?: Document[],
  extras?: QueryExtras,
  typed?: { q?: unknown; u?: unknown },
): Document {
  let doc: Document;
  if (isOperatorUpdate(u) || Array.isArray(u)) {
    doc = applyUpdate(seedFromFilter(filter), u, { arrayFilters, inserting: true, extras });
  } else {
    const seed = seedFromFilter(filter);
    doc = applyUpdate(seed._id !== undefined ? { _id: seed._id } : {}, u, { inserting: true });
  }
  if (doc._id === undefined) doc._id = new ObjectId();
  if (typed) {
    const seed = typed.q && typeof typed.q === 'object' ? seedFromFilter(typed.q as Document) : {};
    const stored = isOperatorUpdate(u) || Array.isArray(u) ? seed : { _id: seed._id };
    doc = withBsonTypes(doc, stored, typed.u, true);
  }
  return withIdFirst(doc);
}
