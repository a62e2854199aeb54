// The writing stages that end a pipeline: $out (replace a collection's documents with the results, its
// indexes kept, all or nothing) and $merge (each result merged into a collection by an `on` key, with
// MongoDB's whenMatched / whenNotMatched choices).
import type { Document } from 'bson';
import { matches } from '../query/exec.js';
import { applyUpdate } from '../query/update.js';
import { encode } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import { encodeKey, valuesAtPath } from '../storage/keys.js';
import type { CommandContext } from './context.js';
import { CommandError } from '../errors.js';
import { checkValidation } from './validation.js';
import { prepareInsert, storeNew, take } from './write.js';

export const WRITE_STAGES = new Set(['$out', '$merge']);

function target(ctx: CommandContext, spec: unknown, stage: string): { db: string; coll: string } {
  if (typeof spec === 'string') return { db: ctx.db, coll: spec };
  const s = spec as Document | undefined;
  if (s && typeof s.coll === 'string') return { db: typeof s.db === 'string' ? s.db : ctx.db, coll: s.coll };
  throw new CommandError('FailedToParse', `${stage} requires a collection name or {db, coll}`);
}

/** $out: the target ends up holding exactly `docs`; on any failure it keeps what it had. */
export function runOut(ctx: CommandContext, spec: unknown, docs: Document[]): void {
  const t = target(ctx, spec, '$out');
  const coll = ctx.state.catalog.ensure(t.db, t.coll);
  const old = [...matches(coll, {})].map((m) => ({ rid: m.rid, bytes: Buffer.from(m.bytes), doc: m.doc }));
  for (const o of old) coll.remove(o.rid, o.doc);
  try {
    for (const d of docs) {
      const { bytes, doc } = prepareInsert(undefined, d);
      storeNew(ctx, coll, bytes, doc);
    }
  } catch (e) {
    for (const m of [...matches(coll, {})]) coll.remove(m.rid, m.doc);
    for (const o of old) coll.insert(o.bytes, o.doc);
    throw e;
  }
}

function onFields(spec: Document): string[] {
  const on = spec.on ?? '_id';
  const fields = Array.isArray(on) ? on : [on];
  if (fields.length === 0 || fields.some((f) => typeof f !== 'string'))
    throw new CommandError('FailedToParse', "$merge 'on' must be a field name or an array of field names");
  return fields as string[];
}

function matchOn(
  coll: Collection,
  doc: Document,
  fields: string[],
): ReturnType<typeof matches> extends Iterable<infer M> ? M | undefined : never {
  const filter: Document = {};
  for (const f of fields) {
    const [v] = valuesAtPath(doc, f.split('.'));
    if (v === undefined || Array.isArray(v))
      throw new CommandError(
        'Location51132',
        `$merge write error: 'on' field '${f}' cannot be missing, null, undefined or an array`,
      );
    filter[f] = v;
  }
  return [...take(matches(coll, filter), 1)][0];
}

function duplicate(doc: Document, fields: string[]): CommandError {
  const keyValue = Object.fromEntries(fields.map((f) => [f, valuesAtPath(doc, f.split('.'))[0]]));
  const keyPattern = Object.fromEntries(fields.map((f) => [f, 1]));
  return new CommandError(
    'DuplicateKey',
    `$merge with whenMatched: fail found an existing document with the same values for the 'on' field(s): ${encodeKey(keyValue) && JSON.stringify(keyValue)}`,
    { keyPattern, keyValue },
  );
}

export function runMerge(ctx: CommandContext, raw: unknown, docs: Document[]): void {
  const spec: Document = typeof raw === 'string' ? { into: raw } : ((raw ?? {}) as Document);
  const t = target(ctx, spec.into, '$merge');
  const fields = onFields(spec);
  const whenMatched = spec.whenMatched ?? 'merge';
  const whenNotMatched = spec.whenNotMatched ?? 'insert';
  const coll = ctx.state.catalog.ensure(t.db, t.coll);
  for (const doc of docs) {
    const found = matchOn(coll, doc, fields);
    if (!found) {
      if (whenNotMatched === 'discard') continue;
      if (whenNotMatched === 'fail')
        throw new CommandError(
          'Location13113',
          `$merge could not find a matching document in the target collection for at least one document in the source collection`,
        );
      const { bytes, doc: stored } = prepareInsert(undefined, doc);
      storeNew(ctx, coll, bytes, stored);
      continue;
    }
    if (whenMatched === 'keepExisting') continue;
    if (whenMatched === 'fail') throw duplicate(doc, fields);
    let next: Document;
    if (Array.isArray(whenMatched)) {
      const variables = { ...((spec.let as Document | undefined) ?? {}), new: doc };
      next = applyUpdate(found.doc, whenMatched as Document[], { extras: { variables } });
    } else if (whenMatched === 'replace') next = { ...doc, _id: found.doc._id };
    else if (whenMatched === 'merge') next = { ...found.doc, ...doc, _id: found.doc._id };
    else
      throw new CommandError(
        'BadValue',
        `Enumeration value '${String(whenMatched)}' for field 'whenMatched' is not a valid value.`,
      );
    if (doc._id !== undefined && encodeKey(doc._id) !== encodeKey(found.doc._id)) {
      throw new CommandError(
        'ImmutableField',
        '$merge failed to update the matching document, did you attempt to modify the _id or the shard key?',
      );
    }
    const bytes = encode(next);
    checkValidation(ctx, coll, next, { before: found.doc, bytes });
    coll.update(found.rid, found.doc, bytes, next);
  }
}
