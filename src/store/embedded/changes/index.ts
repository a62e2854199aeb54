// Change streams for the engine: `changeStreams(catalog)` is what startEngine puts into the engine state.
// The source is the storage's oplog (see source.ts); updateLookup reads the catalog.
import { decode } from '../storage/bsonio.js';
import type { Catalog } from '../storage/catalog.js';
import type { Lookup } from './events.js';
import { OplogChangeSource } from './source.js';
import { ChangeStreams } from './streams.js';

export { ChangeStreams } from './streams.js';
export type { ChangeSource } from './source.js';

export function catalogLookup(catalog: Catalog): Lookup {
  return (db, coll, id) => {
    const c = catalog.get(db, coll);
    const slot = c?.slotById(id);
    const bytes = slot === undefined ? undefined : c!.get(slot);
    return bytes ? decode(bytes) : null;
  };
}

export function changeStreams(catalog: Catalog): ChangeStreams {
  return new ChangeStreams(new OplogChangeSource(catalog.oplog, catalog.env), catalogLookup(catalog));
}
