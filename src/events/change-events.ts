// Turns one change of the store's change stream into the events it means: publication transitions of
// articles and issues, product and product-item changes, activated newsletter subscriptions, and the
// cache purge that names what became stale. Pure: the same change gives the same events in every gateway.
import type { ChangeStreamDocument, Document } from 'mongodb';
import type { EventType } from './event-types.js';
import { SHOWN_COLLECTIONS } from '../cache/shown-by.js';
import { entityKey, keysForChange, kindOfCollection, type EntityKind } from '../cache/surrogate-keys.js';

export interface DraftEvent {
  type: EventType;
  /** Events of one entity are delivered in order (`article:<id>`, `subscription:<id>`). */
  entity: string;
  data: Record<string, unknown>;
}

/** Collections whose changes can become events: those with events of their own, and all a cached answer shows. */
export const EVENT_COLLECTIONS = [...new Set([...SHOWN_COLLECTIONS, 'newsletterSubscriptions'])];

/** Article fields that change without the article changing for a reader (counters). */
const COUNTER_FIELDS = new Set(['viewsCount', 'commentsCount', 'averageRatingByCustomers', 'totalRatingsCount']);
/** Product-item fields whose change is a `productItem.changed`: price, stock and availability. */
const ITEM_FIELDS = ['price', 'prices', 'currency', 'stockEnabled', 'stockAvailable', 'available'];

interface Images {
  coll: string;
  id: string;
  before: Document | undefined;
  after: Document | undefined;
  changed: string[] | undefined;
}

function imagesOf(change: ChangeStreamDocument<Document>): Images | undefined {
  if (!('ns' in change) || !change.ns || !('coll' in change.ns) || !('documentKey' in change)) return undefined;
  const id = (change.documentKey as { _id?: unknown })._id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const before = 'fullDocumentBeforeChange' in change ? (change.fullDocumentBeforeChange ?? undefined) : undefined;
  const after = 'fullDocument' in change ? (change.fullDocument ?? undefined) : undefined;
  const described = 'updateDescription' in change ? change.updateDescription : undefined;
  const changed = described
    ? [...Object.keys(described.updatedFields ?? {}), ...(described.removedFields ?? [])].map((f) => f.split('.')[0]!)
    : undefined;
  return {
    coll: change.ns.coll,
    id: String(id),
    before,
    after: change.operationType === 'delete' ? undefined : after,
    changed,
  };
}

const isPublic = (doc: Document | undefined): boolean => doc?.status === 'published';

function publication(kind: 'article' | 'issue', img: Images): DraftEvent[] {
  const was = isPublic(img.before);
  const is = isPublic(img.after);
  if (!was && !is) return [];
  if (was && is && img.changed && img.changed.every((f) => COUNTER_FIELDS.has(f))) return [];
  const doc = (img.after ?? img.before)!;
  const type = `${kind}.${was && is ? 'updated' : is ? 'published' : 'unpublished'}` as EventType;
  const data =
    kind === 'article'
      ? { id: img.id, title: doc.title, slug: doc.slug, url: doc.absoluteUrl, status: img.after?.status ?? null }
      : {
          id: img.id,
          pageId: doc.pageId,
          title: doc.title,
          issueNumber: doc.issueNumber,
          status: img.after?.status ?? null,
        };
  return [{ type, entity: entityKey(kind, img.id), data }];
}

const changeKind = (img: Images): string =>
  !img.after ? 'deleted' : !img.before && !img.changed ? 'created' : 'updated';

function product(img: Images): DraftEvent[] {
  const doc = (img.after ?? img.before)!;
  return [
    {
      type: 'product.changed',
      entity: entityKey('product', img.id),
      data: { id: img.id, change: changeKind(img), name: doc.name, available: img.after?.available ?? false },
    },
  ];
}

function productItem(img: Images): DraftEvent[] {
  const fields = img.changed?.filter((f) => ITEM_FIELDS.includes(f));
  if (img.before && img.after && fields?.length === 0) return [];
  const doc = (img.after ?? img.before)!;
  return [
    {
      type: 'productItem.changed',
      entity: entityKey('productItem', img.id),
      data: {
        id: img.id,
        productId: doc.productId,
        change: changeKind(img),
        changedFields: fields ?? [],
        price: doc.price,
        currency: doc.currency,
        prices: doc.prices,
        available: img.after?.available ?? false,
        stockEnabled: doc.stockEnabled,
        stockAvailable: doc.stockAvailable ?? null,
      },
    },
  ];
}

function subscription(img: Images): DraftEvent[] {
  if (img.after?.status !== 'active' || img.before?.status === 'active') return [];
  // Without a pre-image an update to an active subscription is an activation only if it says so.
  if (!img.before && img.changed && !img.changed.includes('status')) return [];
  const { channelId, email, activatedAt } = img.after;
  return [
    {
      type: 'newsletter.subscription.activated',
      entity: `subscription:${img.id}`,
      data: { id: img.id, channelId, email, activatedAt },
    },
  ];
}

function domainEvents(kind: EntityKind | undefined, img: Images): DraftEvent[] {
  if ((kind === 'article' || kind === 'issue') && (img.coll === 'articles' || img.coll === 'issues'))
    return publication(kind, img);
  if (kind === 'product') return product(img);
  if (kind === 'productItem') return productItem(img);
  return img.coll === 'newsletterSubscriptions' ? subscription(img) : [];
}

/** The events one change means, in the order they are delivered. */
export function eventsOfChange(change: ChangeStreamDocument<Document>): DraftEvent[] {
  const img = imagesOf(change);
  if (!img) return [];
  const kind = kindOfCollection(img.coll);
  const events = domainEvents(kind, img);
  // Drafts are shown nowhere and counters are not what readers cache: such changes to articles and issues purge
  // nothing. A change to anything else a cached answer shows does.
  const quiet = (img.coll === 'articles' || img.coll === 'issues') && events.length === 0;
  const keys = quiet ? [] : keysForChange(img.coll, img.id);
  if (keys.length > 0)
    events.push({
      type: 'cache.purge',
      entity: kind ? entityKey(kind, img.id) : `${img.coll}:${img.id}`,
      data: { keys },
    });
  return events;
}
