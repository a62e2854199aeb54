// Any thrown value as the error fields of a reply or of a writeErrors entry, with MongoDB's codes.
import type { Document } from 'bson';
import { MingoError } from 'mingo/util';
import { CommandError, DuplicateKeyError, KeyTooLongError } from '../errors.js';

/** Any thrown value as the fields MongoDB puts in an error reply or a writeErrors entry. */
export function errorFields(e: unknown): { code: number; codeName: string; errmsg: string } & Document {
  if (e instanceof CommandError) return { errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
  if (e instanceof DuplicateKeyError) {
    return { errmsg: e.message, code: 11000, codeName: 'DuplicateKey', keyPattern: e.keyPattern, keyValue: e.keyValue };
  }
  if (e instanceof KeyTooLongError) return { errmsg: e.message, code: e.code, codeName: e.codeName };
  const msg = e instanceof Error ? e.message : String(e);
  // A $regex string JavaScript cannot compile (MongoDB's PCRE would refuse it too).
  if (e instanceof SyntaxError && /regular expression/i.test(msg)) {
    return {
      errmsg: `Regular expression is invalid: ${msg.replace(/^Invalid regular expression: /, '')}`,
      code: 51091,
      codeName: 'Location51091',
    };
  }
  if (/^Use of undefined variable/.test(msg)) return { errmsg: msg, code: 17276, codeName: 'Location17276' };
  // mingo reports invalid operators/arguments as MingoError; MongoDB calls these BadValue.
  if (e instanceof MingoError) return { errmsg: msg, code: 2, codeName: 'BadValue' };
  return { errmsg: msg, code: 1, codeName: 'InternalError' };
}

export function errorReply(e: unknown): Document {
  return { ok: 0, ...errorFields(e) };
}

/** A writeErrors entry: { index, code, errmsg, ... } (no codeName, as the server sends). */
export function writeError(index: number, e: unknown): Document {
  const { codeName: _ignored, ...rest } = errorFields(e);
  return { index, ...rest };
}
