// The catalog: databases -> collections. A database exists while it has at least one collection,
// as in MongoDB. Collection creation and drops are reported to the journal sink.
import type { Document } from 'bson';
import { Collection } from './collection.js';
import { EntryKind, type JournalSink } from './journal.js';

export class Catalog {
  readonly dbs = new Map<string, Map<string, Collection>>();
  /** Set by persistence once recovery is done; undefined while replaying or in memory-only mode. */
  sink: JournalSink | undefined;

  get(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** Existing collection or a newly created one (implicit creation by writes and createIndexes). */
  ensure(db: string, name: string, options: Document = {}): Collection {
    const existing = this.get(db, name);
    if (existing) return existing;
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, () => this.sink, options);
    colls.set(name, coll);
    this.sink?.ddl(EntryKind.CreateCollection, db, name, { options });
    return coll;
  }

  drop(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.delete(name)) return false;
    if (colls.size === 0) this.dbs.delete(db);
    this.sink?.ddl(EntryKind.DropCollection, db, name, {});
    return true;
  }

  dropDatabase(db: string): void {
    if (!this.dbs.delete(db)) return;
    this.sink?.ddl(EntryKind.DropDatabase, db, '', {});
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  *all(): Iterable<Collection> {
    for (const colls of this.dbs.values()) yield* colls.values();
  }
}
