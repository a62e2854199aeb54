// A command's argument values, checked the way the server checks them (the wrong type is a TypeMismatch).
import type { Long, Document } from 'bson';
import { CommandError } from '../errors.js';

export function optDoc(v: unknown, field: string): Document | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${Array.isArray(v) ? 'array' : typeof v}', expected type 'object'`,
    );
  }
  return v as Document;
}

export function optInt(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'bigint' ? Number(v) : Number(v);
  if (typeof v === 'boolean' || Number.isNaN(n)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${typeof v}', expected types '[long, int, decimal, double]'`,
    );
  }
  return Math.trunc(n);
}

/** A cursor id as sent: a Long, or a number the driver did not wrap. */
export function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Long') return (v as Long).toBigInt();
  throw new CommandError('TypeMismatch', `cursor id must be a long, got ${typeof v}`);
}
