// The wire server, on TCP and optionally a Unix domain socket: one message queue per connection (requests on a
// connection are answered in order), framing, decoding, dispatch and reply encoding. Tracks sockets so close()
// can end them.
import { rmSync } from 'node:fs';
import net from 'node:net';
import { deserialize, type Document } from 'bson';
import type { Durability } from '../commands/dispatch.js';
import { answerIdLookup, dispatch } from '../commands/dispatch.js';
import { errorReply } from '../commands/error-replies.js';
import { failAction, failPointSet, withWriteConcernError, type FailAction } from '../commands/failpoints.js';
import type { EngineState } from '../commands/context.js';
import { decodeRequest, encodeReply, frameOpMsg, type ReplyBody, type Request } from './codec.js';
import { MessageFramer } from './framing.js';
import { idLookupRequest } from './idLookup.js';
import { replyBuffers } from './rawbson.js';

export class WireServer {
  private readonly server: net.Server;
  /** The Unix domain socket listened on besides TCP, and its path (removed on close). */
  private local: { server: net.Server; path: string } | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** The application name each connection's handshake gave (for fail points naming an `appName`). */
  private readonly appNames = new Map<number, string>();
  private nextConnectionId = 1;

  constructor(
    private readonly state: EngineState,
    private readonly durability?: Durability,
  ) {
    this.server = net.createServer((s) => this.accept(s));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as net.AddressInfo).port);
      });
    });
  }

  /** Listens on a Unix domain socket too (a file left at `path` by a process that died is replaced). */
  listenOnSocket(path: string): Promise<void> {
    const server = net.createServer((s) => this.accept(s));
    return new Promise((resolve, reject) => {
      rmSync(path, { force: true });
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        this.local = { server, path };
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    const closing = [this.server, ...(this.local ? [this.local.server] : [])].map(
      (server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
    );
    for (const s of this.sockets) s.destroy();
    await Promise.all(closing);
    if (this.local) rmSync(this.local.path, { force: true });
  }

  private accept(socket: net.Socket): void {
    const connectionId = this.nextConnectionId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const framer = new MessageFramer();
    // Requests on a connection are answered in order: a message waits behind the one still being answered
    // (a command that waits for the disk or for changes); otherwise it is answered at once, in this turn.
    let queue: Promise<void> | undefined;
    socket.on('data', (chunk: Buffer) => {
      let msgs: Buffer[];
      try {
        msgs = framer.push(chunk);
      } catch (e) {
        this.state.log('protocol error, closing connection', { connectionId, error: String(e) });
        socket.destroy();
        return;
      }
      for (const msg of msgs) {
        if (queue) {
          const next: Promise<void> = queue
            .then(() => this.handle(socket, msg, connectionId))
            .then(() => {
              if (queue === next) queue = undefined;
            });
          queue = next;
          continue;
        }
        const waiting = this.handle(socket, msg, connectionId);
        if (waiting) {
          const next: Promise<void> = waiting.then(() => {
            if (queue === next) queue = undefined;
          });
          queue = next;
        }
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.appNames.delete(connectionId);
    });
  }

  /** Answers one message: at once, or (undefined returned) through the promise it returns. Never rejects. */
  private handle(socket: net.Socket, msg: Buffer, connectionId: number): Promise<void> | undefined {
    // Requests queued behind a connection that has gone (or an engine that is closing) are dropped.
    if (socket.destroyed) return undefined;
    let req: Request;
    let reply: ReplyBody | Promise<ReplyBody>;
    try {
      const failing = failPointSet(this.state);
      // A find by _id (most of what the service sends) is answered from the request's bytes when it can be.
      const lookup = failing ? undefined : idLookupRequest(msg);
      const answer = lookup && answerIdLookup(this.state, lookup);
      if (answer) {
        socket.write(frameOpMsg(answer, msg.readInt32LE(4)));
        return undefined;
      }
      req = decodeRequest(msg);
      if (!req.error) this.noteClient(req.body, connectionId);
      const action =
        failing && !req.error ? failAction(this.state, req.body, this.appNames.get(connectionId)) : undefined;
      if (action) {
        const r = req;
        reply = this.failCommand(socket, action, () =>
          dispatch(this.state, { body: r.body, raw: r.raw, sequences: r.sequences, connectionId }, this.durability),
        );
      } else {
        reply = req.error
          ? errorReply(req.error)
          : dispatch(
              this.state,
              { body: req.body, raw: req.raw, sequences: req.sequences, connectionId },
              this.durability,
            );
      }
    } catch (e) {
      this.failed(socket, connectionId, e);
      return undefined;
    }
    if (!(reply instanceof Promise)) {
      this.send(socket, req, reply, connectionId);
      return undefined;
    }
    return reply.then(
      (r) => this.send(socket, req, r, connectionId),
      (e: unknown) => this.failed(socket, connectionId, e),
    );
  }

  /** Remembers the application name a handshake (hello / isMaster with `client`) gives. */
  private noteClient(body: Document, connectionId: number): void {
    const client = body.client as { application?: { name?: unknown } } | undefined;
    if (client && typeof client === 'object' && typeof client.application?.name === 'string')
      this.appNames.set(connectionId, client.application.name);
  }

  /**
   * A command the `failCommand` fail point matched (commands/failpoints.ts): as mongod, it waits first
   * (blockConnection), then closes the connection unanswered, or answers the error, or runs and has the write
   * concern error added to its reply.
   */
  private failCommand(
    socket: net.Socket,
    action: FailAction,
    run: () => ReplyBody | Promise<ReplyBody>,
  ): ReplyBody | Promise<ReplyBody> {
    const act = (): ReplyBody | Promise<ReplyBody> => {
      if (action.closeConnection) {
        socket.destroy();
        return {}; // never sent: the socket is gone
      }
      if (action.error) return action.error;
      const reply = run();
      const wce = action.writeConcernError;
      if (!wce) return reply;
      const add = (r: ReplyBody): ReplyBody =>
        withWriteConcernError(Buffer.isBuffer(r) ? (deserialize(r) as Document) : r, wce);
      return reply instanceof Promise ? reply.then(add) : add(reply);
    };
    if (action.blockMs <= 0) return act();
    return new Promise<void>((resolve) => setTimeout(resolve, action.blockMs)).then(act);
  }

  private send(socket: net.Socket, req: Request, reply: ReplyBody, connectionId: number): void {
    if (req.moreToCome || socket.destroyed) return;
    try {
      const out = encodeReply(req, reply);
      if (Buffer.isBuffer(reply) && out.buffer !== reply.buffer) replyBuffers.release(reply); // copied (OP_REPLY framing)
      // Lent reply memory goes back only once the socket has written it (or never, if the write failed).
      if (replyBuffers.lends(out)) socket.write(out, (e) => e || replyBuffers.release(out));
      else socket.write(out);
    } catch (e) {
      this.failed(socket, connectionId, e);
    }
  }

  private failed(socket: net.Socket, connectionId: number, e: unknown): void {
    this.state.log('failed to handle message, closing connection', { connectionId, error: String(e) });
    socket.destroy();
  }
}
