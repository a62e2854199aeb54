// Change records -> change event documents as MongoDB shapes them (operationType, clusterTime, wallTime,
// ns, documentKey, fullDocument, updateDescription, fullDocumentBeforeChange), honouring the stream's
// fullDocument / fullDocumentBeforeChange modes.
import type { Document } from 'bson';
import { decode, encode } from '../storage/bsonio.js';
import type { ChangeRecord } from './record.js';
import { timestampOf, tokenOf } from './token.js';

export type FullDocumentMode = 'default' | 'updateLookup' | 'whenAvailable' | 'required';
export type BeforeChangeMode = 'off' | 'whenAvailable' | 'required';

/** The current version of a document (for updateLookup), or null when it is gone. */
export type Lookup = (db: string, coll: string, id: unknown) => Document | null;

const isPlain = (v: unknown): v is Document =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
const same = (a: unknown, b: unknown): boolean => encode({ v: a }).equals(encode({ v: b }));

/**
 * MongoDB-style update description: dotted paths of changed fields, names of removed ones. With `disambiguate`
 * (showExpandedEvents) also `disambiguatedPaths`: for each path with a numeric-looking field name or a field name
 * holding a dot, its components (array indices as integers, field names as strings).
 */
function describeUpdate(before: Document, after: Document, disambiguate = false): Document {
  const updatedFields: Document = {};
  const removedFields: string[] = [];
  const truncatedArrays: Document[] = [];
  const disambiguatedPaths: Document = {};
  const note = (path: string, parts: Array<string | number>): string => {
    if (parts.some((p) => typeof p === 'string' && (/^\d+$/.test(p) || p.includes('.'))))
      disambiguatedPaths[path] = parts;
    return path;
  };
  const walk = (b: Document, a: Document, prefix: string, parts: Array<string | number>): void => {
    for (const [k, v] of Object.entries(a)) {
      const path = prefix + k;
      const at = [...parts, k];
      if (!(k in b)) updatedFields[note(path, at)] = v;
      else if (isPlain(b[k]) && isPlain(v)) walk(b[k] as Document, v, `${path}.`, at);
      else if (Array.isArray(b[k]) && Array.isArray(v)) {
        // Element by element; a shorter array is reported as truncated, appended elements by index.
        const old = b[k] as unknown[];
        if (v.length < old.length) truncatedArrays.push({ field: note(path, at), newSize: v.length });
        v.forEach((x, i) => {
          if (i < old.length && isPlain(old[i]) && isPlain(x)) walk(old[i] as Document, x, `${path}.${i}.`, [...at, i]);
          else if (i >= old.length || !same(old[i], x)) updatedFields[note(`${path}.${i}`, [...at, i])] = x;
        });
      } else if (!same(b[k], v)) updatedFields[note(path, at)] = v;
    }
    for (const k of Object.keys(b)) if (!(k in a)) removedFields.push(note(prefix + k, [...parts, k]));
  };
  walk(before, after, '', []);
  return { updatedFields, removedFields, truncatedArrays, ...(disambiguate ? { disambiguatedPaths } : {}) };
}

export interface EventModes {
  /** The source's epoch, carried in every resume token. */
  epoch: number;
  fullDocument: FullDocumentMode;
  beforeChange: BeforeChangeMode;
  lookup: Lookup;
  /** showExpandedEvents: DDL events (create, createIndexes, dropIndexes) are reported. */
  expanded: boolean;
}

/**
 * An event's fields that cost next to nothing to make: everything but the document images and the update's
 * description, which decode (and compare) whole documents.
 */
export const HEAD_FIELDS: ReadonlySet<string> = new Set([
  '_id',
  'operationType',
  'clusterTime',
  'wallTime',
  'ns',
  'operationDescription',
  'documentKey',
]);

/** The event's HEAD_FIELDS alone. */
export function eventHead(rec: ChangeRecord, epoch: number): Document {
  const event: Document = {
    _id: tokenOf(rec.position, epoch),
    operationType: rec.kind,
    clusterTime: timestampOf(rec.position),
    wallTime: rec.wallTime,
    ns: rec.kind === 'dropDatabase' ? { db: rec.db } : { db: rec.db, coll: rec.coll },
  };
  if (rec.description) event.operationDescription = rec.description;
  if (rec.key) event.documentKey = decode(rec.key);
  return event;
}

export function eventOf(rec: ChangeRecord, modes: EventModes): Document {
  const event = eventHead(rec, modes.epoch);
  if (!rec.key) return event;
  const key = event.documentKey as Document;
  if (rec.kind === 'insert' || rec.kind === 'replace') event.fullDocument = decode(rec.after!);
  if (rec.kind === 'update') {
    // Records written before pre-images were kept have none: every field then shows as updated.
    const before = rec.before ? decode(rec.before) : {};
    const after = decode(rec.after!);
    event.updateDescription = describeUpdate(before, after, modes.expanded);
    if (modes.fullDocument === 'updateLookup') event.fullDocument = modes.lookup(rec.db, rec.coll, key._id);
    else if (modes.fullDocument !== 'default') event.fullDocument = after;
  }
  if (modes.beforeChange !== 'off' && rec.before) event.fullDocumentBeforeChange = decode(rec.before);
  return event;
}

export function invalidateOf(rec: ChangeRecord, epoch: number): Document {
  return {
    _id: tokenOf(rec.position, epoch, true),
    operationType: 'invalidate',
    clusterTime: timestampOf(rec.position),
    wallTime: rec.wallTime,
  };
}
