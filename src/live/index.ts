// Live updates for one service process: the hub (one change stream) and the WebSocket endpoint on the
// HTTP server. A store that cannot stream changes leaves subscriptions refused with LIVE_UNAVAILABLE.
import { LiveHub } from './hub.js';
import { attachLiveServer, type LiveServer, type LiveServerDeps } from './ws-server.js';

export type { LiveServer } from './ws-server.js';

export async function startLive(deps: Omit<LiveServerDeps, 'hub'>): Promise<LiveServer> {
  const hub = await LiveHub.start(deps.store, deps.log);
  return attachLiveServer({ ...deps, hub });
}
