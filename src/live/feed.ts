// What a subscription operation gets in its context: the process's hub, its own connection and the id its
// client gave the subscription (answers are written to the socket under that id).
import type { LiveHub } from './hub.js';
import type { Connection } from './subscriber.js';

export interface LiveFeed {
  hub: LiveHub;
  connection: Connection;
  subscriptionId?: string;
}
