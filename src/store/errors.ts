// Maps driver failures to application errors: an unreachable store is a 503, never a driver message.
import {
  MongoNetworkError,
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoBulkWriteError,
} from 'mongodb';
import { storeUnavailable, type AppError } from '../errors.js';

export function isStoreOutage(err: unknown): boolean {
  return (
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNetworkError ||
    err instanceof MongoNetworkTimeoutError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError
  );
}

export function isDuplicateKey(err: unknown): err is MongoServerError {
  return err instanceof MongoServerError && err.code === 11000;
}

/** A bulk write (or single write) whose every failure is a duplicate key: what was new was written. */
export function allDuplicateKeys(err: unknown): boolean {
  if (err instanceof MongoBulkWriteError) {
    const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    return errors.length > 0 && errors.every((e) => e.code === 11000);
  }
  return isDuplicateKey(err);
}

/** An application error for a store failure the caller can act on, or undefined for a real bug. */
export function storeErrorToAppError(err: unknown): AppError | undefined {
  return isStoreOutage(err) ? storeUnavailable() : undefined;
}
