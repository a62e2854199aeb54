// expectEvents: the command events each client observed during the test's operations, in order.
import { MatchError, match, type Doc } from './match.js';
import type { Entities } from './entities.js';

/** A test's `expectEvents`: the commands each client is expected to have sent. */
export interface ExpectedEvents {
  client: string;
  events: Doc[];
  eventType?: string;
  ignoreExtraEvents?: boolean;
}

export function checkEvents(test: { expectEvents?: ExpectedEvents[] }, ents: Entities): void {
  for (const group of test.expectEvents ?? []) {
    const actual = ents.client(group.client).events;
    const want = group.events;
    const fail = (msg: string): never => {
      const seen = actual.map((a) => `${a.kind}:${a.e.commandName}`).join(', ');
      throw new MatchError(`expectEvents(${group.client}): ${msg}; observed [${seen}]`);
    };
    if (group.ignoreExtraEvents ? actual.length < want.length : actual.length !== want.length)
      fail(`expected ${want.length} events, observed ${actual.length}`);
    want.forEach((w, i) => {
      const [kind, spec] = Object.entries(w)[0] as [string, Doc];
      const a = actual[i]!;
      if (a.kind !== kind) fail(`event ${i} should be ${kind}, was ${a.kind}`);
      try {
        if (spec.commandName !== undefined && spec.commandName !== a.e.commandName)
          throw new MatchError(`commandName ${a.e.commandName}, expected ${String(spec.commandName)}`);
        if (spec.databaseName !== undefined && spec.databaseName !== a.e.databaseName)
          throw new MatchError(`databaseName ${a.e.databaseName}, expected ${String(spec.databaseName)}`);
        if (spec.command !== undefined && a.kind === 'commandStartedEvent')
          match(spec.command, a.e.command, ents, true, 'command');
        if (spec.reply !== undefined && a.kind === 'commandSucceededEvent')
          match(spec.reply, a.e.reply, ents, true, 'reply');
      } catch (e) {
        fail(`event ${i} (${a.e.commandName}): ${(e as Error).message}`);
      }
    });
  }
}
