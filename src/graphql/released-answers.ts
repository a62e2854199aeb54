// Emptying an answer's result objects once its bytes are made, so that promises settled with them do not keep
// them alive (see `settledOf`). The executor (execute.ts) records them; the server (server.ts) releases them.

/**
 * The result objects and lists of each answer that settled a promise, by the answer's data: what `releaseAnswer`
 * empties once the answer's bytes are made. A promise made when the request began (a root field's, the completion of
 * an asynchronous field) is in the old generation by the time it settles, and a dead old object is a root for every
 * young-generation collection until the next full one: whatever its value reaches (the rest of the answer) was kept
 * and promoted with each answer (docs/PERFORMANCE.md).
 */
const settledOf = new WeakMap<object, object[]>();

/** Records the objects and lists that settled promises while `data` was computed. */
export function recordSettled(data: object, settled: object[]): void {
  settledOf.set(data, settled);
}

/** Empties what settled the promises of an answer whose bytes are made (its data is not read again). */
export function releaseAnswer(data: object): void {
  const settled = settledOf.get(data);
  if (!settled) return;
  settledOf.delete(data);
  for (const value of settled) {
    if (Array.isArray(value)) value.length = 0;
    else for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = undefined;
  }
  settled.length = 0;
}
