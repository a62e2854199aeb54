// Live updates for one service process: the hub (one change stream) and the WebSocket endpoint on the
// HTTP server. A store that cannot stream changes leaves subscriptions refused with LIVE_UNAVAILABLE.
import type { Server } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config.js';
import type { Authenticator } from '../http/authenticate.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import type { Store } from '../store/store.js';
import { LiveHub } from './hub.js';
import { attachLiveServer, type LiveServer } from './ws-server.js';

export type { LiveServer } from './ws-server.js';

export async function startLive(deps: {
  server: Server;
  schema: GraphQLSchema;
  config: Config;
  log: Logger;
  store: Store;
  mailer: Mailer;
  authenticate: Authenticator;
}): Promise<LiveServer> {
  const hub = await LiveHub.start(deps.store, deps.log);
  return attachLiveServer({ ...deps, hub });
}
