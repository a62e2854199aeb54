// findAndModify: atomically select one document (honouring sort), then update, replace or remove it,
// replying { lastErrorObject: { n, updatedExisting, upserted }, value }. Failures are command errors
// (a duplicate key is code 11000 on the command, not a writeError).
import type { Document } from 'bson';
import { checkHint, shape } from '../query/exec.js';
import { checkProjection } from '../query/fields.js';
import type { QueryExtras } from '../query/options.js';
import { typedDecode } from '../query/types.js';
import { checkUpdateSpec, upsertDocument, type UpdateSpec } from '../query/update.js';
import { collName, letVariables, typedBody, type CommandContext, type Handler } from './context.js';
import { optDoc } from './args.js';
import { CommandError } from '../errors.js';
import { refuseWriteToView } from './views.js';
import { prepareInsert, selectOne, storeNew, updateOne } from './write.js';

/** The document to return: as stored (`bytes`, its numbers keeping their BSON types) unless projected. */
function project(
  doc: Document | null,
  fields: Document | undefined,
  extras: QueryExtras,
  bytes?: Buffer,
): Document | null {
  if (!doc || !fields || Object.keys(fields).length === 0) return bytes ? typedDecode(bytes) : doc;
  return [...shape([doc], { projection: fields, extras })][0] ?? null;
}

function run(ctx: CommandContext): Document {
  const b = ctx.body;
  const name = collName(ctx);
  refuseWriteToView(ctx, name);
  const filter = optDoc(b.query, 'query') ?? {};
  const sort = optDoc(b.sort, 'sort');
  const fields = optDoc(b.fields, 'fields') ?? optDoc(b.projection, 'projection');
  const extras: QueryExtras = { collation: optDoc(b.collation, 'collation'), variables: letVariables(ctx) };
  const remove = b.remove === true;
  const u = b.update as UpdateSpec | undefined;
  if (remove && u !== undefined)
    throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && (u === undefined || u === null || typeof u !== 'object')) {
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  }
  if (remove && b.upsert === true)
    throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
  if (!remove) checkUpdateSpec(u!);
  const returnNew = b.new === true;
  const arrayFilters = b.arrayFilters as Document[] | undefined;
  const coll = ctx.state.catalog.get(ctx.db, name);
  checkHint(coll, b.hint);
  checkProjection(fields);
  const found = coll ? selectOne(coll, filter, sort, extras) : undefined;

  if (remove) {
    if (!found) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    const value = project(found.doc, fields, extras, found.bytes); // before the stored bytes go
    coll!.remove(found.rid, found.doc);
    return { lastErrorObject: { n: 1 }, value, ok: 1 };
  }
  if (!found) {
    if (b.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const target = ctx.state.catalog.ensure(ctx.db, name);
    const typed = typedBody(ctx);
    const doc = upsertDocument(filter, u!, arrayFilters, extras, typed && { q: typed.query, u: typed.update });
    const { bytes } = prepareInsert(undefined, doc);
    storeNew(ctx, target, bytes, doc);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
      value: returnNew ? project(doc, fields, extras) : null,
      ok: 1,
    };
  }
  const before = returnNew ? undefined : project(found.doc, fields, extras, found.bytes);
  const res = updateOne(
    ctx,
    coll!,
    found.rid,
    found.doc,
    found.bytes,
    u!,
    filter,
    arrayFilters,
    extras,
    typedBody(ctx)?.update,
  );
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: returnNew ? project(res.doc, fields, extras, res.bytes) : before,
    ok: 1,
  };
}

export const findAndModifyCommands: Record<string, Handler> = {
  findAndModify: run,
  findandmodify: run,
};
