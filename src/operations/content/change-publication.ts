// The editors' publication changes of articles and issues (docs/api.md, "Editorial workflow"): the state machine,
// checked by the store's conditional update so that two editors (or an editor and the clock) never both win.
import type { Context } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import type { PublicationStatusValue } from '../../store/content/page.doc.js';
import { changeStatus, type PublishedCollection, type StatusChange } from '../../store/content/publication.js';
import { requireEditor } from '../live/editor.js';
import { checkId } from './input.js';

export type PublicationAction = 'publishNow' | 'schedule' | 'unpublish' | 'moveToDraft' | 'archive';

/** Which statuses each action starts from, and where it leads. */
const TRANSITIONS: Record<PublicationAction, { from: readonly PublicationStatusValue[]; to: PublicationStatusValue }> =
  {
    publishNow: { from: ['draft', 'scheduled', 'archived'], to: 'published' },
    schedule: { from: ['draft', 'scheduled', 'archived'], to: 'scheduled' },
    unpublish: { from: ['published'], to: 'draft' },
    moveToDraft: { from: ['scheduled', 'archived'], to: 'draft' },
    archive: { from: ['draft', 'scheduled', 'published'], to: 'archived' },
  };

/** Times further ahead than this are refused: a typo (a year 20260) rather than a plan. */
const FURTHEST_MS = 5 * 366 * 24 * 3600_000;

export interface ChangeRequest {
  collection: PublishedCollection;
  id: string;
  action: PublicationAction;
  publishAt?: Date | null;
  unpublishAt?: Date | null;
}

export interface ChangedPublication {
  id: string;
  status: PublicationStatusValue;
  previousStatus: PublicationStatusValue;
  publishAt: Date | null;
  unpublishAt: Date | null;
  lastModifierUserId: string;
  changedAt: Date;
}

function checkTime(value: Date | null | undefined, field: string, after: Date, afterWhat: string): Date | null {
  if (value === null || value === undefined) return null;
  if (!(value instanceof Date) || Number.isNaN(value.getTime()))
    throw badRequest(`${field} must be a date-time`, [{ field, message: 'Invalid date-time' }]);
  if (value.getTime() <= after.getTime() || value.getTime() > after.getTime() + FURTHEST_MS)
    throw badRequest(`${field} must be after ${afterWhat} and within five years`, [{ field, message: 'Out of range' }]);
  return value;
}

/** The change an action asks for, its times checked; BAD_USER_INPUT for times out of order or missing. */
function changeOf(request: ChangeRequest, now: Date): StatusChange {
  const { action } = request;
  const to = TRANSITIONS[action].to;
  if (action === 'schedule') {
    if (!request.publishAt) throw badRequest('publishAt is required', [{ field: 'publishAt', message: 'Required' }]);
    const publishAt = checkTime(request.publishAt, 'publishAt', now, 'now')!;
    return { to, publishAt, unpublishAt: checkTime(request.unpublishAt, 'unpublishAt', publishAt, 'publishAt') };
  }
  if (action === 'publishNow')
    return { to, publishAt: null, unpublishAt: checkTime(request.unpublishAt, 'unpublishAt', now, 'now') };
  return { to, publishAt: null, unpublishAt: null };
}

/** Makes one change for the editor behind the request; NOT_FOUND for no such document, BAD_USER_INPUT when its status does not allow it. */
export async function changePublication(ctx: Context, request: ChangeRequest): Promise<ChangedPublication> {
  const editor = await requireEditor(ctx, 'change what is published');
  const id = checkId(request.id);
  const now = new Date();
  const change = changeOf(request, now);
  const { from } = TRANSITIONS[request.action];
  const previous = await changeStatus(ctx.store, request.collection, id, from, change, editor.customerId, now);
  if (!previous) {
    const current = (await ctx.store
      .collection(request.collection)
      .findOne({ _id: id }, { projection: { status: 1 } })) as { status: PublicationStatusValue } | null;
    const what = request.collection === 'articles' ? 'article' : 'issue';
    if (!current) throw notFound('NOT_FOUND', 'Not Found', `There is no ${what} ${id}`);
    throw badRequest(`${request.action} is not allowed from ${current.status.toUpperCase()}`, [
      {
        field: 'id',
        message: `The ${what} is ${current.status.toUpperCase()}; ${request.action} needs ${from.join(', ').toUpperCase()}`,
      },
    ]);
  }
  return {
    id,
    status: change.to,
    previousStatus: previous,
    publishAt: change.publishAt,
    unpublishAt: change.unpublishAt,
    lastModifierUserId: editor.customerId,
    changedAt: now,
  };
}
