// State of one token-endpoint request that the provider does not hand to its adapter: which refresh
// token this request rotated (set by the adapter's consume, read when the successor is saved).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TokenRequestState {
  /** The refresh token this request consumed (or retried inside its grace window). */
  rotatedFrom?: string;
}

const storage = new AsyncLocalStorage<TokenRequestState>();

export const runTokenRequest = <T>(fn: () => Promise<T>): Promise<T> => storage.run({}, fn);

export const tokenRequestState = (): TokenRequestState | undefined => storage.getStore();
