// Store commands a running service sends on its own timers, not because of a request: the OAuth polls
// for new revocations and signing keys (src/oauth/revocations.ts, keys.ts; every OAUTH_POLL_MS). Tests
// that count a request's store commands leave these out.
import type { CommandStartedEvent } from 'mongodb';

export function isBackgroundPoll(event: CommandStartedEvent): boolean {
  const command = event.command as { find?: unknown; filter?: { _id?: unknown } };
  return command.find === 'oauth_revocations' || (command.find === 'settings' && command.filter?._id === 'oauth.keys');
}
