// Duplicate-key errors shaped like MongoDB's E11000 (code 11000, keyPattern, keyValue, gist of errmsg).
import { EJSON } from 'bson';
import type { Document } from 'bson';

/** Renders a value roughly the way the server prints it in E11000 messages. */
function show(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  const bt = (v as { _bsontype?: string })._bsontype;
  if (bt === 'ObjectId') return `ObjectId('${String(v)}')`;
  try {
    return EJSON.stringify(v as Document, { relaxed: true });
  } catch {
    return String(v);
  }
}

export class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(
    readonly ns: string,
    readonly indexName: string,
    readonly keyPattern: Document,
    readonly keyValue: Document,
  ) {
    const kv = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${show(v)}`)
      .join(', ');
    super(`E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: { ${kv} }`);
  }
}
