// The interface storage uses to report every state change, so persistence (when enabled) can log it.
// Entries are idempotent "make it so" operations: replaying a suffix twice yields the same state.
import type { Document } from 'bson';

export const EntryKind = {
  Put: 1,
  Delete: 2,
  CreateCollection: 3,
  DropCollection: 4,
  CreateIndex: 5,
  DropIndex: 6,
  DropDatabase: 7,
} as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];

export interface JournalSink {
  /** Full post-image of a document (raw BSON). */
  put(db: string, coll: string, doc: Uint8Array): void;
  /** Deletion by _id; `id` is a BSON document { _id }. */
  del(db: string, coll: string, id: Document): void;
  ddl(kind: EntryKind, db: string, coll: string, body: Document): void;
}
