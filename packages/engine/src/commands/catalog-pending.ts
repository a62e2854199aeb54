// A catalog change waiting for its commit, per engine. The in-heap catalog changes when a command runs, its
// storage when the transaction commits (a few milliseconds later, off the event loop): a read planned in
// between could walk a new index that has no keys yet. Every command that arrives meanwhile waits for that
// commit (catalog changes are rare; documents written by a pending command are simply not visible yet, as in
// any engine).
import type { EngineState } from './context.js';

const pending = new WeakMap<EngineState, Promise<unknown>>();

/** The catalog change commands wait for, if one is under way. */
export function catalogPending(state: EngineState): Promise<unknown> | undefined {
  return pending.get(state);
}

/** Makes commands wait for `change` (settled either way); returns it, settled once it no longer holds them. */
export function holdCommands<T>(state: EngineState, change: Promise<T>): Promise<T> {
  const held: Promise<T> = change.finally(() => {
    if (pending.get(state) === held) pending.delete(state);
  });
  pending.set(state, held);
  return held;
}
