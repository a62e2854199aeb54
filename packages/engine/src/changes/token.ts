// Resume tokens: `{ _data: <hex> }`, opaque to clients as in MongoDB. The hex holds the event's position
// (its cluster time), the epoch of the history it comes from, and whether it is an invalidate (only
// `startAfter` may resume from one).
import { Timestamp } from 'bson';
import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import { incrementOf, positionOf, secondsOf } from './source.js';

export interface ResumePoint {
  position: bigint;
  epoch: number;
  invalidate: boolean;
}

const TOKEN = /^[0-9A-F]{24}0[01]$/;
const hex = (n: bigint | number, digits: number): string => n.toString(16).toUpperCase().padStart(digits, '0');

export function tokenOf(position: bigint, epoch: number, invalidate = false): Document {
  return { _data: hex(position, 16) + hex(epoch, 8) + (invalidate ? '01' : '00') };
}

export function parseToken(token: unknown, field: string): ResumePoint {
  const data = token && typeof token === 'object' ? (token as Document)._data : undefined;
  if (typeof data !== 'string' || !TOKEN.test(data))
    throw new CommandError('InvalidResumeToken', `${field}: the resume token was not produced by this server`);
  return {
    position: BigInt(`0x${data.slice(0, 16)}`),
    epoch: Number.parseInt(data.slice(16, 24), 16),
    invalidate: data.endsWith('1'),
  };
}

export const timestampOf = (position: bigint): Timestamp =>
  new Timestamp({ t: secondsOf(position), i: incrementOf(position) });

export function positionOfTimestamp(ts: unknown, field: string): bigint {
  if (!(ts instanceof Timestamp))
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'timestamp'`);
  return positionOf(ts.high >>> 0, ts.low >>> 0);
}
