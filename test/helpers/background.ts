// Store commands a running service sends on its own, not because of a request: the OAuth polls for new
// revocations and signing keys (src/oauth/revocations.ts, keys.ts; every OAUTH_POLL_MS), and the webhook
// event producer keeping its stream position (src/events/producer.ts), which follows the request's own
// write by an unknown delay and so lands in whichever request's commands happen to be recorded. Tests that
// count a request's store commands leave these out.
import type { CommandStartedEvent } from 'mongodb';
import { POSITION_SETTING } from '../../src/events/producer.js';

type Command = {
  find?: unknown;
  update?: unknown;
  insert?: unknown;
  filter?: { _id?: unknown };
  updates?: Array<{ q?: { _id?: unknown } }>;
  documents?: Array<{ _id?: unknown }>;
};

export function isBackgroundCommand(event: CommandStartedEvent): boolean {
  const command = event.command as Command;
  if (command.find === 'oauth_revocations' || (command.find === 'settings' && command.filter?._id === 'oauth.keys'))
    return true;
  if (command.update === 'settings') return command.updates?.every((u) => u.q?._id === POSITION_SETTING) === true;
  if (command.insert === 'settings') return command.documents?.every((d) => d._id === POSITION_SETTING) === true;
  return false;
}
