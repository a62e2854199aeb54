// Maps driver failures to application errors: an unreachable store is a 503, never a driver message.
import {
  MongoNetworkError,
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoNetworkTimeoutError,
  MongoServerError,
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

/** An application error for a store failure the caller can act on, or undefined for a real bug. */
export function storeErrorToAppError(err: unknown): AppError | undefined {
  return isStoreOutage(err) ? storeUnavailable() : undefined;
}
