// When a poll takes votes: until an editor closes it (`closed` stored) or its end date passes. The one rule
// behind the API's `closed` (computed when read) and the vote's check and guarded count.
import type { PollDoc } from './elements.doc.js';

export const pollIsOpen = (poll: Pick<PollDoc, 'closed' | 'endDate'>, now: Date): boolean =>
  !poll.closed && (poll.endDate === null || poll.endDate > now);

/** The same rule as a filter, for writes that must only happen while the poll is open. */
export const pollOpenFilter = (now: Date) => ({ closed: false, $or: [{ endDate: null }, { endDate: { $gt: now } }] });
