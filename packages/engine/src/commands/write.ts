// Write commands: insert, update, delete. Per-statement failures become writeErrors (ordered writes stop
// at the first one); each document write is all-or-nothing in storage.
import { ObjectId } from 'bson';
import type { Document } from 'bson';
import { checkFilter, checkHint, matches, shape, type Match } from '../query/exec.js';
import type { QueryExtras } from '../query/options.js';
import { typedDecode, withBsonTypes } from '../query/types.js';
import { applyUpdate, checkUpdateSpec, isOperatorUpdate, upsertDocument, type UpdateSpec } from '../query/update.js';
import { decode, encode, idIsFirst, leadingId, withIdFirst } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import type { Rid } from '../storage/index-keys.js';
import { MAX_BSON_OBJECT_SIZE } from './admin.js';
import { collName, letVariables, statements, typedStatements, type CommandContext, type Handler } from './context.js';
import { optDoc } from './args.js';
import { refuseWriteToView } from './views.js';
import { CommandError } from '../errors.js';
import { writeError } from './error-replies.js';
import { checkCappedFits, trimCapped } from './capped.js';
import { checkValidation } from './validation.js';

/** Normalises a document for storage: _id present and first. Returns the bytes (storage copies them). */
export function prepareInsert(raw: Buffer | undefined, given: Document): { bytes: Buffer; doc: Document } {
  let doc = given;
  let bytes = raw;
  if (doc._id === undefined) {
    doc = { _id: new ObjectId(), ...doc };
    bytes = undefined;
  } else if (!bytes || !idIsFirst(bytes)) {
    doc = withIdFirst(doc);
    bytes = undefined;
  }
  if (Array.isArray(doc._id)) throw new CommandError('BadValue', `can't use an array for _id`);
  if (isPlainObject(doc._id)) {
    const bad = Object.keys(doc._id).find((k) => k.startsWith('$'));
    if (bad)
      throw new CommandError(
        'DollarPrefixedFieldName',
        `_id fields may not contain '$'-prefixed fields: ${bad} is not valid for storage.`,
      );
  }
  const out = bytes ?? encode(doc);
  if (out.length > MAX_BSON_OBJECT_SIZE)
    throw new CommandError(
      'BadValue',
      `object to insert too large. size in bytes: ${out.length}, max size: ${MAX_BSON_OBJECT_SIZE}`,
    );
  return { bytes: out, doc };
}

/** Stores a new document: validated (validation.ts), inserted, and a capped collection trimmed to its cap. */
export function storeNew(ctx: CommandContext, coll: Collection, bytes: Buffer, doc: Document): void {
  checkValidation(ctx, coll, doc, { bytes });
  checkCappedFits(coll, bytes);
  coll.insert(bytes, doc);
  trimCapped(coll);
}

function ordered(ctx: CommandContext): boolean {
  return ctx.body.ordered !== false;
}

function withErrors(reply: Document, errors: Document[]): Document {
  if (errors.length) reply.writeErrors = errors;
  reply.ok = 1;
  return reply;
}

/** Applies `u` to one matched document; returns whether it changed. */
/** `typedU`: the update as sent, numbers as BSON type objects (context.ts typedBody), for the stored types. */
export function updateOne(
  ctx: CommandContext,
  coll: Collection,
  rid: Rid,
  doc: Document,
  bytes: Buffer,
  u: UpdateSpec,
  filter: Document,
  arrayFilters?: Document[],
  extras?: QueryExtras,
  typedU?: unknown,
): { changed: boolean; doc: Document; bytes: Buffer } {
  const next = applyUpdate(decode(bytes), u, { filter, arrayFilters, extras });
  const nextBytes = encode(withBsonTypes(next, typedDecode(bytes), typedU));
  if (nextBytes.equals(bytes)) return { changed: false, doc: next, bytes };
  if (nextBytes.length > MAX_BSON_OBJECT_SIZE)
    throw new CommandError('BadValue', 'Resulting document after update is larger than 16777216');
  checkValidation(ctx, coll, next, { before: doc, bytes: nextBytes });
  coll.update(rid, doc, nextBytes, next, { replacement: !Array.isArray(u) && !isOperatorUpdate(u) });
  return { changed: true, doc: next, bytes: nextBytes };
}

export const writeCommands: Record<string, Handler> = {
  insert: (ctx) => {
    const name = collName(ctx);
    refuseWriteToView(ctx, name);
    const seq = ctx.sequences.get('documents');
    const given = seq ? undefined : statements(ctx, 'documents');
    const count = seq ? seq.length : given!.length;
    const coll = ctx.state.catalog.ensure(ctx.db, name);
    const errors: Document[] = [];
    let n = 0;
    for (let i = 0; i < count; i++) {
      try {
        const raw = seq?.[i];
        // With only the _id index and no validator, only _id is needed: skip decoding the rest of the document.
        const given1 = raw
          ? (coll.onlyIdIndex && !coll.options.validator && leadingId(raw)) || decode(raw)
          : given![i]!;
        const { bytes, doc } = prepareInsert(raw, given1);
        storeNew(ctx, coll, bytes, doc);
        n++;
      } catch (e) {
        errors.push(writeError(i, e));
        if (ordered(ctx)) break;
      }
    }
    return withErrors({ n }, errors);
  },

  update: (ctx) => {
    const name = collName(ctx);
    refuseWriteToView(ctx, name);
    const stmts = statements(ctx, 'updates');
    const typedStmts = typedStatements(ctx, 'updates');
    const errors: Document[] = [];
    const upserted: Document[] = [];
    let n = 0;
    let nModified = 0;
    const variables = letVariables(ctx);
    for (let i = 0; i < stmts.length; i++) {
      const st = stmts[i]!;
      const typed = typedStmts?.[i];
      try {
        const filter = optDoc(st.q, 'q') ?? {};
        const u = st.u as UpdateSpec;
        if (!u || typeof u !== 'object')
          throw new CommandError('FailedToParse', "BSON field 'update.updates.u' is missing but a required field");
        const multi = st.multi === true;
        if (multi && !Array.isArray(u) && !isOperatorUpdate(u) && Object.keys(u).length > 0) {
          throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
        }
        checkUpdateSpec(u);
        const arrayFilters = st.arrayFilters as Document[] | undefined;
        const extras: QueryExtras = { collation: optDoc(st.collation, 'collation'), variables };
        const coll = ctx.state.catalog.get(ctx.db, name);
        checkFilter(filter, extras);
        checkHint(coll, st.hint);
        // MongoDB 8.0: updateOne/replaceOne may say which match to update with `sort`.
        const sort = multi ? undefined : optDoc(st.sort, 'sort');
        const one = coll && sort ? selectOne(coll, filter, sort, extras) : undefined;
        const found = !coll
          ? []
          : sort
            ? one
              ? [one]
              : []
            : [...take(matches(coll, filter, extras), multi ? Infinity : 1)];
        if (found.length === 0 && st.upsert === true) {
          const target = ctx.state.catalog.ensure(ctx.db, name);
          const doc = upsertDocument(filter, u, arrayFilters, extras, typed);
          const { bytes } = prepareInsert(undefined, doc);
          storeNew(ctx, target, bytes, doc);
          n++;
          upserted.push({ index: i, _id: doc._id });
          continue;
        }
        // A statement that fails counts for nothing in n and nModified (the documents a multi-update
        // changed before the failing one stay changed, as in MongoDB).
        let matched = 0;
        let modified = 0;
        for (const m of found) {
          const res = updateOne(ctx, coll!, m.rid, m.doc, m.bytes, u, filter, arrayFilters, extras, typed?.u);
          matched++;
          if (res.changed) modified++;
        }
        n += matched;
        nModified += modified;
      } catch (e) {
        errors.push(writeError(i, e));
        if (ordered(ctx)) break;
      }
    }
    const reply: Document = { n, nModified };
    if (upserted.length) reply.upserted = upserted;
    return withErrors(reply, errors);
  },

  delete: (ctx) => {
    const name = collName(ctx);
    refuseWriteToView(ctx, name);
    const stmts = statements(ctx, 'deletes');
    const errors: Document[] = [];
    const variables = letVariables(ctx);
    let n = 0;
    for (let i = 0; i < stmts.length; i++) {
      const st = stmts[i]!;
      try {
        const filter = optDoc(st.q, 'q') ?? {};
        const limit = Number(st.limit ?? 0);
        if (limit !== 0 && limit !== 1)
          throw new CommandError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${limit}`);
        const coll = ctx.state.catalog.get(ctx.db, name);
        checkFilter(filter, { variables });
        checkHint(coll, st.hint);
        if (!coll) continue;
        const found = [
          ...take(
            matches(coll, filter, { collation: optDoc(st.collation, 'collation'), variables }),
            limit === 1 ? 1 : Infinity,
          ),
        ];
        for (const m of found) {
          coll.remove(m.rid, m.doc);
          n++;
        }
      } catch (e) {
        errors.push(writeError(i, e));
        if (ordered(ctx)) break;
      }
    }
    return withErrors({ n }, errors);
  },
};

function isPlainObject(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

export function* take<T>(src: Iterable<T>, max: number): Generator<T> {
  if (max <= 0) return;
  let i = 0;
  for (const x of src) {
    yield x;
    if (++i >= max) return;
  }
}

/** The first match in `sort` order (or natural order without a sort). */
export function selectOne(
  coll: Collection,
  filter: Document,
  sort: Document | undefined,
  extras: QueryExtras,
): Match | undefined {
  if (!sort || Object.keys(sort).length === 0) return [...take(matches(coll, filter, extras), 1)][0];
  const bySlot = new Map<Document, Match>();
  const docs: Document[] = [];
  for (const m of matches(coll, filter, extras)) {
    bySlot.set(m.doc, m);
    docs.push(m.doc);
  }
  const [first] = [...shape(docs, { sort, limit: 1, extras })];
  return first ? bySlot.get(first) : undefined;
}
