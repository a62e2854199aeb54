// The write-path hooks: command handlers report each document change here as it happens, and dispatch
// commits them to the change source once the command's writes are durable (so a stream never shows a
// change the writer could still lose). Commands run one at a time, so a command's changes are contiguous.
import { encode } from '../storage/bsonio.js';
import type { ChangeKind, ChangeRecord } from './record.js';
import type { ChangeSource } from './source.js';

type Draft = Omit<ChangeRecord, 'position'>;

const copy = (bytes: Uint8Array): Buffer => Buffer.from(bytes);

export class ChangeRecorder {
  private pending: Draft[] = [];

  constructor(readonly source: ChangeSource) {}

  inserted(db: string, coll: string, after: Uint8Array, id: unknown): void {
    this.add('insert', db, coll, { key: encode({ _id: id }), after: copy(after) });
  }

  /** `replacement`: the update was a whole replacement document (MongoDB reports those as `replace`). */
  updated(db: string, coll: string, before: Uint8Array, after: Uint8Array, id: unknown, replacement: boolean): void {
    this.add(replacement ? 'replace' : 'update', db, coll, { key: encode({ _id: id }), before: copy(before), after: copy(after) });
  }

  deleted(db: string, coll: string, before: Uint8Array, id: unknown): void {
    this.add('delete', db, coll, { key: encode({ _id: id }), before: copy(before) });
  }

  dropped(db: string, coll: string): void {
    this.add('drop', db, coll, {});
  }

  /** A dropped database: a drop per collection, then the database itself (MongoDB's order). */
  droppedDatabase(db: string, colls: string[]): void {
    for (const coll of colls) this.dropped(db, coll);
    this.add('dropDatabase', db, '', {});
  }

  /** Hands the command's changes to the source (called once the command is durable). */
  commit(): void {
    if (this.pending.length === 0) return;
    const drafts = this.pending;
    this.pending = [];
    this.source.append(drafts);
  }

  /** Forgets the command's changes: its transaction did not commit. */
  discard(): void {
    this.pending = [];
  }

  private add(kind: ChangeKind, db: string, coll: string, images: Pick<Draft, 'key' | 'before' | 'after'>): void {
    const size = 64 + (images.key?.length ?? 0) + (images.before?.length ?? 0) + (images.after?.length ?? 0);
    this.pending.push({ kind, db, coll, wallTime: new Date(), size, ...images });
  }
}
