// TCP server: one message queue per connection (requests on a connection are answered in order), framing,
// decoding, dispatch and reply encoding. Tracks sockets so close() can end them.
import net from 'node:net';
import type { Durability } from '../commands/dispatch.js';
import { dispatch } from '../commands/dispatch.js';
import { errorReply } from '../commands/errors.js';
import type { EngineState } from '../commands/context.js';
import { decodeRequest, encodeReply } from './codec.js';
import { MessageFramer } from './framing.js';

export class WireServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
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

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private accept(socket: net.Socket): void {
    const connectionId = this.nextConnectionId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const framer = new MessageFramer();
    let queue = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      let msgs: Buffer[];
      try {
        msgs = framer.push(chunk);
      } catch (e) {
        this.state.log('protocol error, closing connection', { connectionId, error: String(e) });
        socket.destroy();
        return;
      }
      for (const msg of msgs) queue = queue.then(() => this.handle(socket, msg, connectionId));
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  private async handle(socket: net.Socket, msg: Buffer, connectionId: number): Promise<void> {
    // Requests queued behind a connection that has gone (or an engine that is closing) are dropped.
    if (socket.destroyed) return;
    try {
      const req = decodeRequest(msg);
      const reply = req.error ? errorReply(req.error) : await dispatch(this.state, { body: req.body, raw: req.raw, sequences: req.sequences, connectionId }, this.durability);
      if (req.moreToCome || socket.destroyed) return;
      socket.write(encodeReply(req, reply));
    } catch (e) {
      this.state.log('failed to handle message, closing connection', { connectionId, error: String(e) });
      socket.destroy();
    }
  }
}
