// mongodump's <collection>.metadata.json: canonical Extended JSON of
//   {"options": {...} (omitted when empty), "indexes": [...], "uuid": "<32 hex>", "collectionName": "...", "type": "collection"}
// with the index documents exactly as listIndexes returns them (mongo-tools mongodump/metadata_dump.go).
import { BSON, type Document } from 'mongodb';

const { Binary, EJSON } = BSON;
import { DumpFormatError } from './errors.js';

export interface CollectionMetadata {
  collectionName: string;
  /** `collection` or `view` (mongodump); views carry no documents and are not restored. */
  type: string;
  options: Document;
  /** listIndexes documents, `_id_` included. */
  indexes: Document[];
  uuid?: string;
}

/** The `uuid` of a listCollections entry as mongodump writes it: hex of the subtype-4 binary, or nothing. */
export function uuidHex(info: unknown): string | undefined {
  const uuid = (info as { uuid?: unknown } | undefined)?.uuid;
  return uuid instanceof Binary && uuid.sub_type === Binary.SUBTYPE_UUID
    ? Buffer.from(uuid.buffer).toString('hex')
    : undefined;
}

export function metadataJson(meta: CollectionMetadata): string {
  const ordered: Document = {};
  if (Object.keys(meta.options).length > 0) ordered.options = meta.options;
  ordered.indexes = meta.indexes;
  if (meta.uuid) ordered.uuid = meta.uuid;
  ordered.collectionName = meta.collectionName;
  ordered.type = meta.type;
  return EJSON.stringify(ordered, { relaxed: false });
}

const isObject = (v: unknown): v is Document => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses and checks a metadata file's text; `fallbackName` is the collection name its file name gives. */
export function parseMetadata(file: string, text: string, fallbackName: string): CollectionMetadata {
  if (text.trim() === '') return { collectionName: fallbackName, type: 'collection', options: {}, indexes: [] };
  let parsed: unknown;
  try {
    parsed = EJSON.parse(text, { relaxed: false });
  } catch (err) {
    const message = (err as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    throw new DumpFormatError(
      file,
      position === undefined ? undefined : Number(position),
      `not valid Extended JSON: ${message}`,
    );
  }
  const bad = (detail: string): never => {
    throw new DumpFormatError(file, undefined, `not a mongodump metadata document: ${detail}`);
  };
  if (!isObject(parsed)) return bad('expected a JSON object');
  const { indexes, options, collectionName, type, uuid } = parsed;
  if (indexes !== undefined && !Array.isArray(indexes)) bad('"indexes" must be an array');
  const list = (indexes ?? []) as unknown[];
  list.forEach((index, i) => {
    if (!isObject(index)) bad(`indexes[${i}] must be an object`);
    const spec = index as Document;
    if (!isObject(spec.key) || Object.keys(spec.key).length === 0) bad(`indexes[${i}].key must be a non-empty object`);
    if (typeof spec.name !== 'string' || spec.name === '') bad(`indexes[${i}].name must be a non-empty string`);
  });
  if (options !== undefined && !isObject(options)) bad('"options" must be an object');
  if (collectionName !== undefined && typeof collectionName !== 'string') bad('"collectionName" must be a string');
  if (type !== undefined && typeof type !== 'string') bad('"type" must be a string');
  if (uuid !== undefined && (typeof uuid !== 'string' || !/^[0-9a-f]{32}$/i.test(uuid)))
    bad('"uuid" must be 32 hex digits');
  return {
    collectionName: (collectionName as string | undefined) ?? fallbackName,
    type: (type as string | undefined) ?? 'collection',
    options: (options as Document | undefined) ?? {},
    indexes: list as Document[],
    uuid: uuid as string | undefined,
  };
}
