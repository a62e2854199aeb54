// What a signed-in reader's answer may depend on when it is shared with other readers: their active
// entitlements, nothing else. The entitlement set keys the shared answer (src/cache/response-cache.ts), and while
// a shareable operation runs its resolvers see a viewer that exposes only that set. Reading anything that tells
// one customer from another (id, client, scopes) marks the answer personal: it is sent `no-store` and never
// stored. That is the fail-closed half of the per-viewer marker (`@cacheControl(scope: PRIVATE)`, see
// src/graphql/cache-control.ts): a new per-viewer field without the marker costs its operation the cache, never a leak.
import type { Entitlement, Viewer } from '../viewer.js';

export interface ActiveEntitlements {
  /** The groups active at the request's time, sorted and distinct: a reader's key into shared answers. */
  groups: readonly string[];
  /** When the first of them lapses (ms since the epoch); null when none does. A shared answer must not outlive it. */
  until: number | null;
}

export async function activeEntitlements(viewer: Viewer, now: Date): Promise<ActiveEntitlements> {
  const groups = new Set<string>();
  let until: number | null = null;
  for (const e of await viewer.entitlements()) {
    if (e.validUntil !== null && e.validUntil <= now) continue;
    groups.add(e.group);
    if (e.validUntil !== null && (until === null || e.validUntil.getTime() < until)) until = e.validUntil.getTime();
  }
  return { groups: [...groups].sort(), until };
}

/** Whether the answer being computed read who the viewer is (shared per request with the HTTP layer). */
export interface SharedAnswerState {
  personal: boolean;
  /** What made it personal without saying so first (a field without the per-viewer marker), for the log. */
  readBy?: string;
  /** What said, before reading the viewer, that the answer is theirs alone (`answerIsPersonal`). */
  declared?: string;
  /** The active entitlements, once a resolver has asked for them (an answer that never does is not bound by them). */
  active?: ActiveEntitlements;
}

/**
 * Said by a resolver that has found its answer depends on who the viewer is (a cart found by `node(id:)`), before
 * it reads them: the answer is sent `no-store` and never stored, as when an unmarked field reads the viewer, but
 * without the warning that such a read logs. A no-op outside a shareable operation.
 */
export function answerIsPersonal(state: SharedAnswerState | undefined, what: string): void {
  if (!state) return;
  state.personal = true;
  state.declared ??= what;
}

/**
 * A viewer that answers only with its active entitlements. Within the answer they never lapse (it is not kept
 * past `until`), so they are given without their end dates: a field showing an end date is per viewer. They are
 * loaded when a resolver first asks (then recorded in `state.active`), so an answer that does not depend on them
 * costs no store read.
 */
export function entitlementsOnlyViewer(viewer: Viewer, now: Date, state: SharedAnswerState): Viewer {
  return new EntitlementsOnlyViewer(viewer, now, state);
}

// A class rather than an object literal with getters: V8 gives a literal's accessors a pair of their own in the
// old generation, which would keep the request's objects alive across young-generation collections (see
// src/operations/content/connection.ts).
class EntitlementsOnlyViewer implements Viewer {
  readonly #viewer: Viewer;
  readonly #now: Date;
  readonly #state: SharedAnswerState;
  #entitlements: Promise<Entitlement[]> | undefined;

  constructor(viewer: Viewer, now: Date, state: SharedAnswerState) {
    this.#viewer = viewer;
    this.#now = now;
    this.#state = state;
  }

  #identity<T>(name: string, value: T): T {
    this.#state.personal = true;
    if (!this.#state.declared) this.#state.readBy ??= name;
    return value;
  }

  get customerId(): string {
    return this.#identity('customerId', this.#viewer.customerId);
  }

  get clientId(): string | undefined {
    return this.#identity('clientId', this.#viewer.clientId);
  }

  get scopes(): ReadonlySet<string> {
    return this.#identity('scopes', this.#viewer.scopes);
  }

  entitlements(): Promise<Entitlement[]> {
    return (this.#entitlements ??= activeEntitlements(this.#viewer, this.#now).then((active) => {
      this.#state.active = active;
      return active.groups.map((group) => ({ group, validUntil: null }));
    }));
  }
}
