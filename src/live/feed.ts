// What a subscription operation gets in its context: the process's hub and its own connection.
import type { LiveHub } from './hub.js';
import type { Connection } from './subscriber.js';

export interface LiveFeed {
  hub: LiveHub;
  connection: Connection;
}
