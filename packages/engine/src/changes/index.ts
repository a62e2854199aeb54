// Change streams for the engine: `changeStreams(catalog)` is what startEngine puts into the engine state.
// The source is the storage's oplog (see source.ts); updateLookup reads the catalog.
import { decode } from '../storage/bsonio.js';
import type { Catalog } from '../storage/catalog.js';
import type { Lookup } from './events.js';
import { OplogChangeSource } from './source.js';
import { ChangeStreams } from './streams.js';

export { ChangeStreams } from './streams.js';

function catalogLookup(catalog: Catalog): Lookup {
  return (db, coll, id) => {
    const c = catalog.get(db, coll);
    const rid = c?.ridById(id);
    const bytes = rid === undefined ? undefined : c!.get(rid);
    return bytes ? decode(bytes) : null;
  };
}

export function changeStreams(catalog: Catalog): ChangeStreams {
  return new ChangeStreams(new OplogChangeSource(catalog.oplog, catalog.env), catalogLookup(catalog));
}
