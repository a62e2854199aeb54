// Publication status changes of articles and issues in the store: each is one conditional update that matches only
// from the states the change is allowed from, so of two processes (or two editors) making the same change at once
// exactly one succeeds; each change that happened is recorded once in `publicationTransitions`.
import type { Collection, Document, Filter } from 'mongodb';
import { isDuplicateKey } from '../errors.js';
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
  const set: Record<string, unknown> = {
    status: change.to,
    publishAt: change.publishAt,
    unpublishAt: change.unpublishAt,
    lastModifierUserId: by,
  };
  if (collection === 'issues') set.timestamp = at;
  else set.lastUpdateDate = at;
  const before = (await published(store, collection).findOneAndUpdate(
    { ...also, _id: id, status: { $in: [...from] } } as Document,
    { $set: set },
    { returnDocument: 'before', projection: { status: 1, firstPublishedDate: 1 } },
  )) as Pick<ArticleDoc, 'status' | 'firstPublishedDate'> | null;
  if (!before) return null;
  // An article keeps the date it first went live; one going live for the first time gets it now.
  if (collection === 'articles' && change.to === 'published' && !before.firstPublishedDate)
    await store
      .collection('articles')
      .updateOne({ _id: id, firstPublishedDate: null }, { $set: { firstPublishedDate: at } });
  await record(store, { collection, documentId: id, from: before.status, to: change.to, at, by });
  return before.status;
}

async function record(store: Store, transition: Omit<TransitionDoc, '_id'>): Promise<void> {
  const _id = `${transition.collection}/${transition.documentId}/${transition.to}/${transition.at.toISOString()}`;
  try {
    await store.collection('publicationTransitions').insertOne({ _id, ...transition });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

/** The clock's two changes: a scheduled document goes live, a published one reaches its unpublish time. */
const timed = [
  { field: 'publishAt', from: 'scheduled', to: 'published' },
  { field: 'unpublishAt', from: 'published', to: 'archived' },
] as const;

/** How many due changes of one kind a round reads at most; the next round reads on while this one made some. */
const DUE_BATCH = 100;

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
        // Each change is a conditional update of its own document: all are under way at once (a start that finds
        // a backlog waits for one round of writes, not one per change).
        const made = await Promise.all(
          due.map((doc) => {
            const at = doc[field]!;
            const change: StatusChange =
              to === 'published'
                ? { to, publishAt: null, unpublishAt: doc.unpublishAt ?? null }
                : { to, publishAt: null, unpublishAt: null };
            return changeStatus(store, collection, doc._id, [from], change, null, at, { [field]: at });
          }),
        );
        return made.filter((before) => before !== null).length;
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
