// Publication status changes of articles and issues in the store: each is one conditional update that matches only
// from the states the change is allowed from, so of two processes (or two editors) making the same change at once
// exactly one succeeds; each change that happened is recorded once in `publicationTransitions`.
import type { Collection, Document, Filter } from 'mongodb';
import { allDuplicateKeys } from '../errors.js';
import type { Store } from '../store.js';
import type { ArticleDoc } from './article.doc.js';
import type { PublicationStatusValue } from './page.doc.js';

export type PublishedCollection = 'articles' | 'issues';
const PUBLISHED_COLLECTIONS: readonly PublishedCollection[] = ['articles', 'issues'];

/** One recorded status change: by an editor (`by` their customer id) or by the clock (`by` null). */
interface TransitionDoc {
  _id: string;
  collection: PublishedCollection;
  documentId: string;
  from: PublicationStatusValue;
  to: PublicationStatusValue;
  at: Date;
  by: string | null;
}

declare module '../collections.js' {
  interface CollectionTypes {
    publicationTransitions: TransitionDoc;
  }
}

export interface StatusChange {
  to: PublicationStatusValue;
  publishAt: Date | null;
  unpublishAt: Date | null;
}

/** Both collections through the fields they share (status, schedule, ids). */
const published = (store: Store, collection: PublishedCollection): Collection<Document> =>
  store.collection(collection) as unknown as Collection<Document>;

/**
 * Moves one document to `change.to` if its status is one of `from` (and `also` holds); returns the status it had,
 * or null when nothing matched. Records who (`by`) and when (`at`), and the transition.
 */
export async function changeStatus(
  store: Store,
  collection: PublishedCollection,
  id: string,
  from: readonly PublicationStatusValue[],
  change: StatusChange,
  by: string | null,
  at: Date,
  also: Filter<Document> = {},
): Promise<PublicationStatusValue | null> {
  const before = await setStatus(store, { collection, id, from, change, by, at, also });
  if (before) await record(store, [{ collection, documentId: id, from: before, to: change.to, at, by }]);
  return before;
}

/** changeStatus's one write, without the record: the status it had, or null when nothing matched. */
async function setStatus(
  store: Store,
  {
    collection,
    id,
    from,
    change,
    by,
    at,
    also,
  }: {
    collection: PublishedCollection;
    id: string;
    from: readonly PublicationStatusValue[];
    change: StatusChange;
    by: string | null;
    at: Date;
    also: Filter<Document>;
  },
): Promise<PublicationStatusValue | null> {
  const set: Record<string, unknown> = {
    status: change.to,
    publishAt: change.publishAt,
    unpublishAt: change.unpublishAt,
    lastModifierUserId: by,
  };
  if (collection === 'issues') set.timestamp = at;
  else set.lastUpdateDate = at;
  // An article keeps the date it first went live; one going live for the first time gets it now, in the same
  // write (a pipeline: every value is a literal, whatever it holds).
  const firstLive = collection === 'articles' && change.to === 'published';
  const update = firstLive
    ? [
        {
          $set: {
            ...Object.fromEntries(Object.entries(set).map(([k, v]) => [k, { $literal: v }])),
            firstPublishedDate: { $ifNull: ['$firstPublishedDate', { $literal: at }] },
          },
        },
      ]
    : { $set: set };
  const before = (await published(store, collection).findOneAndUpdate(
    { ...also, _id: id, status: { $in: [...from] } } as Document,
    update,
    { returnDocument: 'before', projection: { status: 1 } },
  )) as Pick<ArticleDoc, 'status'> | null;
  return before?.status ?? null;
}

/** Records transitions that happened, each once (a second process making the same record finds it there). */
async function record(store: Store, transitions: Array<Omit<TransitionDoc, '_id'>>): Promise<void> {
  if (transitions.length === 0) return;
  const docs = transitions.map((t) => ({
    _id: `${t.collection}/${t.documentId}/${t.to}/${t.at.toISOString()}`,
    ...t,
  }));
  try {
    await store.collection('publicationTransitions').insertMany(docs, { ordered: false });
  } catch (err) {
    if (!allDuplicateKeys(err)) throw err;
  }
}

/** The clock's two changes: a scheduled document goes live, a published one reaches its unpublish time. */
const timed = [
  { field: 'publishAt', from: 'scheduled', to: 'published' },
  { field: 'unpublishAt', from: 'published', to: 'archived' },
] as const;

/** How many due changes of one kind a round reads at most; the next round reads on while this one made some. */
const DUE_BATCH = 100;
/** How many of a round's changes are under way at once. */
const DUE_CONCURRENCY = 25;

/**
 * Makes the timed changes due at `now` (up to DUE_BATCH of each kind, the earliest first), each at the time it was
 * due (`at`): the conditional update lets one process make it when several try. Returns how many this call made.
 */
export async function applyDueChanges(store: Store, now: Date): Promise<number> {
  const made = await Promise.all(
    PUBLISHED_COLLECTIONS.flatMap((collection) =>
      timed.map(async ({ field, from, to }) => {
        // In the order of the schedule's index ({ status, field }): a range of it is read, not every document of
        // the status (nearly every article is published, and few have an unpublish time).
        const due = (await published(store, collection)
          .find(
            { status: from, [field]: { $lte: now } },
            { projection: { _id: 1, publishAt: 1, unpublishAt: 1 }, sort: { [field]: 1 }, limit: DUE_BATCH },
          )
          .toArray()) as unknown as Array<Pick<ArticleDoc, '_id' | 'publishAt' | 'unpublishAt'>>;
        // Each change is a conditional update of its own document, a few under way at once, and the round's
        // transitions are recorded together: a start that finds a backlog waits for a few commits, not three per
        // change, and the requests served meanwhile find the store answering between them (a round all at once
        // holds the embedded engine's thread for seconds on a cold disk).
        const made: Array<Omit<TransitionDoc, '_id'>> = [];
        let next = 0;
        let failure: unknown;
        const worker = async (): Promise<void> => {
          for (let doc = due[next++]; doc; doc = due[next++]) {
            const at = doc[field]!;
            const change: StatusChange =
              to === 'published'
                ? { to, publishAt: null, unpublishAt: doc.unpublishAt ?? null }
                : { to, publishAt: null, unpublishAt: null };
            try {
              const before = await setStatus(store, {
                collection,
                id: doc._id,
                from: [from],
                change,
                by: null,
                at,
                also: { [field]: at },
              });
              if (before) made.push({ collection, documentId: doc._id, from: before, to, at, by: null });
            } catch (err) {
              failure ??= err; // the changes made are still recorded
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(DUE_CONCURRENCY, due.length) }, worker));
        await record(store, made);
        if (failure !== undefined) throw failure;
        return made.length;
      }),
    ),
  );
  // A document both due to go live and to go away is archived by the next round (its publication is a change too).
  return made.reduce((a, b) => a + b, 0);
}

/** The first timed change after `after` (ms since the epoch), or undefined when none is scheduled. */
export async function nextTimedChange(store: Store, after: Date): Promise<number | undefined> {
  const firsts = await Promise.all(
    PUBLISHED_COLLECTIONS.flatMap((collection) =>
      timed.map(({ field, from }) =>
        published(store, collection)
          .find(
            { status: from, [field]: { $gt: after } },
            {
              projection: { [field]: 1 },
              sort: { [field]: 1 },
              limit: 1,
            },
          )
          .toArray()
          .then((docs) => (docs[0]?.[field] as Date | undefined)?.getTime()),
      ),
    ),
  );
  const times = firsts.filter((t): t is number => t !== undefined);
  return times.length > 0 ? Math.min(...times) : undefined;
}
