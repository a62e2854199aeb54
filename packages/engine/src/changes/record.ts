// One committed change as change streams read it (made from an oplog record, see source.ts): what happened,
// where, and the document images (raw BSON).
import type { Document } from 'bson';

export type ChangeKind = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'dropDatabase' | ExpandedKind;
/** DDL a stream reports only with `showExpandedEvents: true`. */
type ExpandedKind = 'create' | 'createIndexes' | 'dropIndexes' | 'modify';
export const EXPANDED_KINDS: ReadonlySet<ChangeKind> = new Set<ExpandedKind>([
  'create',
  'createIndexes',
  'dropIndexes',
  'modify',
]);

export interface ChangeRecord {
  /** Cluster time of the change (see source.ts); unique and increasing. */
  position: bigint;
  wallTime: Date;
  kind: ChangeKind;
  db: string;
  /** Empty for dropDatabase. */
  coll: string;
  /** BSON of `{ _id }` for document changes. */
  key?: Buffer;
  /** Post-image (insert, update, replace). */
  after?: Buffer;
  /** Pre-image (update, replace, delete). */
  before?: Buffer;
  /** The event's operationDescription (createIndexes, dropIndexes, modify). */
  description?: Document;
}
