// Async-iterator adapters that pass `return()` straight to their source, so a client that completes a
// subscription releases its hub subscriber at once (an async generator would only notice at the next event).
export function mapIterator<T, U>(source: AsyncIterator<T>, fn: (value: T) => U | Promise<U>): AsyncIterableIterator<U> {
  return {
    async next() {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: await fn(r.value), done: false };
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    async throw(err: unknown) {
      await source.return?.();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export function filterIterator<T>(source: AsyncIterator<T>, keep: (value: T) => boolean): AsyncIterableIterator<T> {
  return {
    async next() {
      for (;;) {
        const r = await source.next();
        if (r.done || keep(r.value)) return r;
      }
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    async throw(err: unknown) {
      await source.return?.();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
