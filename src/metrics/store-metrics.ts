// Times every driver command through command monitoring (the client must be created with monitorCommands).
import type { MongoClient } from 'mongodb';
import { storeCommands } from './metrics.js';

const IGNORED = new Set(['hello', 'ismaster', 'isMaster', 'endSessions']);

export function instrumentStore(client: MongoClient): void {
  client.on('commandSucceeded', (e) => {
    if (!IGNORED.has(e.commandName))
      storeCommands.observe({ command: e.commandName, outcome: 'ok' }, e.duration / 1000);
  });
  client.on('commandFailed', (e) => {
    if (!IGNORED.has(e.commandName))
      storeCommands.observe({ command: e.commandName, outcome: 'error' }, e.duration / 1000);
  });
}
