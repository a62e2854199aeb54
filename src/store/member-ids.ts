// Ids of the objects that live inside another: a poll's choices, a quiz's questions, answers and results, a
// cart's items and coupons. Their stored keys are unique only inside their parent (`choice-1` is in every
// poll, a product item is in many carts with its own quantity), while normalized client caches key objects
// by id (Relay by id alone, Apollo and urql by type and id). So their API `id` names the type, the parent and
// the key — `PollChoice:poll-3:choice-1` — which is unique across the whole graph and stable while the key is;
// the bare key is exposed beside it under another name. No stored id of a Node type may start with one of
// these type names and a colon (the seeder's never do).

/** The graph-wide id of the member `key` of the parent(s) `parents`, as a member of type `type`. */
export const memberId = (type: string, ...path: string[]): string => [type, ...path].join(':');

/**
 * The key a client's `given` value stands for inside a known parent: the member id of that parent (as `id`
 * answers it) is reduced to its key; anything else is taken as the key itself, as clients sent it before.
 */
export function memberKey(given: string, type: string, ...parents: string[]): string {
  if (typeof given !== 'string') return given;
  const prefix = `${memberId(type, ...parents)}:`;
  return given.startsWith(prefix) ? given.slice(prefix.length) : given;
}
