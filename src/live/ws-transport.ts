// graphql-ws's protocol server on `ws` sockets: the glue graphql-ws ships as `graphql-ws/use/ws` (protocol
// negotiation, keep-alive pings, messages in, closes out), with every error logged through the service's
// redacting logger. That glue writes them to stderr as raw stack traces, and a peer's protocol errors (an
// oversized or malformed frame) are anyone's to cause.
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ConnectionInitMessage, type ServerOptions } from 'graphql-ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../logger.js';

/** What each connection's context carries beside the caller's own fields. */
export interface SocketExtra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
}

/** A close reason within the protocol's 123 bytes. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

/** Serves graphql-transport-ws on every connection `wss` accepts; `dispose` closes them all with 1001. */
export function serveGraphqlWs<P extends ConnectionInitMessage['payload'], E extends object>(
  options: ServerOptions<P, SocketExtra & E>,
  wss: WebSocketServer,
  keepAliveMs: number,
  log: Logger,
): { dispose(): Promise<void> } {
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (err) => log.error({ err }, 'live: the WebSocket server failed'));
  // One keep-alive timer for every socket: each tick cuts the sockets that did not answer the previous tick's
  // ping within the period, and pings the others.
  const awaitingPong = new Set<WebSocket>();
  const pings =
    keepAliveMs > 0
      ? setInterval(() => {
          for (const socket of wss.clients) {
            if (socket.readyState !== socket.OPEN) continue;
            if (awaitingPong.has(socket)) {
              socket.terminate();
              continue;
            }
            awaitingPong.add(socket);
            socket.ping();
          }
        }, keepAliveMs).unref()
      : undefined;
  wss.on('connection', (socket, request: IncomingMessage) => {
    // Only the peer's address is kept for the connection's life, not the upgrade request.
    const ip = request.socket.remoteAddress;
    // `ws` closes the connection itself on a peer's protocol error (1009 for an oversized message, 1002 ...) and
    // then reports it here: the client's doing, logged without a stack.
    socket.on('error', (err: Error & { code?: string }) =>
      log.info({ wsError: err.code, reason: err.message, ip }, 'live: closed a connection on a protocol error'),
    );
    socket.on('pong', () => awaitingPong.delete(socket));
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (err) => (err ? reject(err) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data) => {
            try {
              await handle(String(data));
            } catch (err) {
              // Our own hooks failed: the client learns only that the server did (no internal message).
              log.error({ err }, 'live: handling a WebSocket message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request } as SocketExtra & E,
    );
    socket.once('close', (code, reason) => {
      awaitingPong.delete(socket);
      void closed(code, String(reason));
    });
  });
  return {
    async dispose() {
      clearInterval(pings);
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
