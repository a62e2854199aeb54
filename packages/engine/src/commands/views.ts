// Views (create with viewOn/pipeline): stored as a catalog entry whose options name the source and the
// pipeline; reads on a view run that pipeline over its source (views on views resolve to the base
// collection), writes are refused with 166 as mongod does.
import type { Document } from 'bson';
import type { CommandContext } from './context.js';
import { CommandError } from '../errors.js';

export interface ResolvedView {
  source: string;
  pipeline: Document[];
}

/** The base collection and full pipeline of view `name`, or undefined if it is not a view. */
export function viewOf(ctx: CommandContext, name: string): ResolvedView | undefined {
  let coll = ctx.state.catalog.get(ctx.db, name);
  if (!coll || typeof coll.options.viewOn !== 'string') return undefined;
  let pipeline: Document[] = [];
  for (let depth = 0; coll && typeof coll.options.viewOn === 'string'; depth++) {
    if (depth > 20)
      throw new CommandError('BadValue', `View depth too deep or view cycle detected; maximum depth is 20`);
    pipeline = [...((coll.options.pipeline as Document[] | undefined) ?? []), ...pipeline];
    name = coll.options.viewOn;
    coll = ctx.state.catalog.get(ctx.db, name);
  }
  return { source: name, pipeline };
}

export function refuseWriteToView(ctx: CommandContext, name: string): void {
  const coll = ctx.state.catalog.get(ctx.db, name);
  if (coll && typeof coll.options.viewOn === 'string')
    throw new CommandError('CommandNotSupportedOnView', `Namespace ${ctx.db}.${name} is a view, not a collection`);
}

/** Validates create's view options; returns them, or undefined when the create is not of a view. */
export function viewOptions(body: Document): Document | undefined {
  if (body.viewOn === undefined) {
    if (body.pipeline !== undefined)
      throw new CommandError('InvalidOptions', "'pipeline' requires 'viewOn' to also be specified");
    return undefined;
  }
  if (typeof body.viewOn !== 'string' || !body.viewOn)
    throw new CommandError('TypeMismatch', "'viewOn' option must be specified as a string");
  const pipeline = body.pipeline ?? [];
  if (!Array.isArray(pipeline))
    throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
  return { viewOn: body.viewOn, pipeline };
}
