// GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol, served by graphql-ws on `ws`)
// on the HTTP server's own port and path, /graphql. Auth happens in connection_init (the same bearer check as
// HTTP, repeated at each subscribe), and a token's connection is closed when the token expires or is revoked
// (src/live/token-lifetime.ts); then each subscribe message is parsed and validated with the HTTP limits, and runs with
// a per-operation context carrying the hub and this connection. Limits: subscriptions per connection,
// message size, ping/pong keep-alive, an idle timeout, and slow subscribers dropped (src/live/subscriber.ts).
import type { IncomingMessage, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import {
  getVariableValues,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Config } from '../config.js';
import { createContext, type Viewer } from '../context.js';
import { AppError } from '../errors.js';
import { formatGraphQLError } from '../graphql/errors.js';
import { armorProtection } from '../graphql/limits.js';
import { DocumentRegistry, mayRunText } from '../graphql/documents/registry.js';
import { MAX_VARIABLE_DEPTH, nestedDeeperThan } from '../variable-depth.js';
import { presentedCredential, type Authenticator } from '../http/authenticate.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import type { Store } from '../store/store.js';
import type { LiveHub } from './hub.js';
import { sharedSubscribe } from './shared-execution.js';
import type { Connection } from './subscriber.js';
import { FORBIDDEN, TokenLifetimes, type RevocationEvents } from './token-lifetime.js';
import { closeReason, serveGraphqlWs } from './ws-transport.js';

export interface LiveServerDeps {
  server: Server;
  schema: GraphQLSchema;
  config: Config;
  log: Logger;
  store: Store;
  mailer: Mailer;
  authenticate: Authenticator;
  /** The process's revocation list: a connection whose token is revoked is closed (absent: expiry only). */
  revocations?: RevocationEvents;
  hub: LiveHub;
}

export interface LiveServer {
  /** Open WebSocket connections. */
  readonly connections: number;
  /** Subscriptions registered with the hub. */
  readonly subscriptions: number;
  /** Sockets the server keeps state for (subscription counts, idle timers): never more than the open ones. */
  readonly trackedSockets: number;
  /** Closes every connection with 1001 (going away) and stops the hub. */
  close(): Promise<void>;
}

/** What onConnect learns, kept on graphql-ws's per-connection extra (beside its socket and request). */
type Extra = { viewer?: Viewer | null; clientIp?: string; credential?: string };

/** Refuses a connection as graphql-ws would (4403), saying why, as an HTTP 401 would. */
function refuse(socket: WebSocket, why: string): false {
  socket.close(FORBIDDEN, closeReason(`Forbidden: ${why}`));
  return false;
}

/** Distinct subscription documents kept parsed and validated (most clients send one of a few). */
const PREPARED_DOCUMENTS = 200;

const TOO_SLOW = 1013;
const TEXT_FRAME = { binary: false };
const SERVER_ONLY = new Set(['connection_ack', 'next', 'error']);
const IDLE = 4408;

/** Codes this module gives its own refusals: shown as they are; everything else goes through the masking formatter. */
const OWN_CODES = new Set([
  'RATE_LIMITED',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
]);
const format = (e: GraphQLError) =>
  !e.originalError && OWN_CODES.has(String(e.extensions.code))
    ? { message: e.message, locations: e.locations, extensions: { code: e.extensions.code } }
    : formatGraphQLError(e.toJSON(), e);
/** A result as sent: its errors through the formatter above (the result itself when it has none). */
const formatResult = (result: ExecutionResult): ExecutionResult | FormattedExecutionResult =>
  result.errors?.length ? { ...result, errors: result.errors.map(format) } : result;

/** A subscriber's socket as the hub and the shared answers see it (a class: one object, no closures, each). */
class SocketConnection implements Connection {
  constructor(
    private readonly socket: WebSocket,
    private readonly config: Config['live'],
    private readonly log: Logger,
  ) {}

  send(data: Buffer): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.congested()) return this.drop('subscriber too slow');
    // A Buffer would go out as a binary frame by default; graphql-ws clients read text frames only.
    this.socket.send(data, TEXT_FRAME);
  }

  congested(): boolean {
    return this.socket.bufferedAmount > this.config.maxBufferedBytes;
  }

  drop(reason: string): void {
    this.log.info({ reason }, 'dropping a live subscriber');
    this.socket.close(TOO_SLOW, reason);
    const socket = this.socket;
    setTimeout(() => socket.terminate(), this.config.closeGraceMs).unref();
  }
}

export function attachLiveServer(deps: LiveServerDeps): LiveServer {
  const { config, log } = deps;
  // No per-message compression: a zlib context per socket costs far more memory than the small JSON it saves.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.live.maxMessageBytes,
    perMessageDeflate: false,
  });
  const rules = [...specifiedRules, ...armorProtection(config.graphql).validationRules];
  // TRUSTED_DOCUMENTS=enforce holds over WebSocket too (docs/api.md, "Trusted documents").
  const trusted = config.trustedDocuments === 'enforce' ? new DocumentRegistry(deps.store) : undefined;
  // A thousand readers of one live blog send the same query: it is parsed and validated once, and they share
  // the document (parsing and validating each anew was most of what a subscription allocated).
  const prepared = new Map<string, DocumentNode>();
  const prepare = (query: string): DocumentNode | GraphQLError[] => {
    const known = prepared.get(query);
    if (known) {
      prepared.delete(query); // kept in least-recently-used order
      prepared.set(query, known);
      return known;
    }
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: config.graphql.maxTokens });
    } catch (err) {
      return [
        new GraphQLError(err instanceof Error ? err.message : 'Syntax Error', {
          extensions: { code: 'GRAPHQL_PARSE_FAILED' },
        }),
      ];
    }
    const errors = validate(deps.schema, document, rules);
    if (errors.length)
      return errors.map(
        (e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
      );
    if (prepared.size >= PREPARED_DOCUMENTS) prepared.delete(prepared.keys().next().value!);
    prepared.set(query, document);
    return document;
  };
  const idle = new Map<WebSocket, NodeJS.Timeout>();
  const active = new Map<WebSocket, number>();

  const armIdle = (socket: WebSocket): void => {
    clearTimeout(idle.get(socket));
    // graphql-ws completes a closed socket's subscriptions after our 'close' handler ran: nothing to arm then.
    if (socket.readyState !== socket.OPEN) return;
    idle.set(socket, setTimeout(() => socket.close(IDLE, 'Idle: no subscription'), config.live.idleTimeoutMs).unref());
  };
  // A token's connection ends with the token (expiry, revocation): 4403, after which graphql-ws clients reconnect.
  const lifetimes = new TokenLifetimes(deps.revocations, (socket, reason) => {
    log.info({ reason }, 'closing a live connection: its access token is no longer valid');
    socket.close(FORBIDDEN, `Forbidden: ${reason}`);
    setTimeout(() => socket.terminate(), config.live.closeGraceMs).unref();
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/graphql') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  deps.server.on('upgrade', onUpgrade);
  wss.on('connection', (socket) => {
    armIdle(socket);
    // `on` rather than `once` (a socket closes once): `once` wraps each listener in one more function and object.
    socket.on('close', () => {
      clearTimeout(idle.get(socket));
      idle.delete(socket);
      active.delete(socket);
      lifetimes.forget(socket);
    });
  });

  const disposable = serveGraphqlWs<Record<string, unknown> | undefined, Extra>(
    {
      schema: deps.schema,
      subscribe: sharedSubscribe(formatResult),
      connectionInitWaitTimeout: 10_000,
      // Messages only a server sends are a client's protocol error (4400), not an internal one (4500).
      jsonMessageReviver: (key, value: unknown) => {
        if (key === '' && SERVER_ONLY.has((value as { type?: unknown } | null)?.type as string))
          throw new Error('a message type only servers send');
        return value;
      },
      onConnect: async (ctx) => {
        // The same rule as over HTTP: nothing (or a blank value) is anonymous, anything else must be a valid bearer token.
        const credential = presentedCredential(
          ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization,
        );
        const socket = ctx.extra.socket;
        try {
          ctx.extra.viewer = await deps.authenticate(credential);
          if (ctx.extra.viewer && credential !== undefined) {
            // Checked again at every subscribe: a token that expired or was revoked opens nothing more.
            ctx.extra.credential = credential;
            // Followed until the socket closes (one that closed while the token was checked is not followed).
            if (
              socket.readyState === socket.OPEN &&
              !lifetimes.follow(socket, credential.replace(/^Bearer\s+/i, '').trim())
            )
              return refuse(socket, 'the access token is no longer valid');
          }
        } catch (err) {
          if (err instanceof AppError && err.status < 500) return refuse(socket, err.message);
          // Logged here, through the redacting logger; the client only learns that the server failed (4500).
          log.error({ err }, 'live: authenticating a WebSocket connection failed');
          throw new Error('Internal server error');
        }
        ctx.extra.clientIp = ctx.extra.request.socket.remoteAddress;
        // Nothing else of the upgrade request is needed: it is not kept for the life of the connection. (Set
        // rather than deleted: an object that loses a property is kept as a slower, larger dictionary.)
        (ctx.extra as { request?: unknown }).request = undefined;
        return true;
      },
      onSubscribe: async (ctx, id, payload) => {
        const socket = ctx.extra.socket;
        if (ctx.extra.credential !== undefined) {
          try {
            await deps.authenticate(ctx.extra.credential);
          } catch (err) {
            if (!(err instanceof AppError) || err.status >= 500) throw err;
            return [
              new GraphQLError('The access token of this connection is no longer valid: connect again with a new one', {
                extensions: { code: 'UNAUTHENTICATED' },
              }),
            ];
          }
        }
        if ((active.get(socket) ?? 0) >= config.live.maxSubscriptions) {
          return [
            new GraphQLError(`At most ${config.live.maxSubscriptions} subscriptions per connection`, {
              extensions: { code: 'RATE_LIMITED' },
            }),
          ];
        }
        if (trusted && !(await mayRunText(trusted, ctx.extra.viewer ?? null, payload.query))) {
          return [
            new GraphQLError('This service runs only the documents registered for your client', {
              extensions: { code: 'TRUSTED_DOCUMENT_REQUIRED' },
            }),
          ];
        }
        const document = prepare(payload.query);
        if (Array.isArray(document)) return document;
        const operation = document.definitions.find(
          (d): d is OperationDefinitionNode =>
            d.kind === 'OperationDefinition' && (!payload.operationName || d.name?.value === payload.operationName),
        );
        if (operation?.operation !== 'subscription') {
          return [
            new GraphQLError(
              'Only subscriptions run over WebSocket; send queries and mutations as HTTP POST /graphql',
              { extensions: { code: 'BAD_USER_INPUT' } },
            ),
          ];
        }
        // Variables that do not fit their types (objects or operators where an ID goes) are the client's error,
        // as over HTTP: BAD_USER_INPUT, never reaching a resolver. So are variables nested too deep to key safely.
        if (nestedDeeperThan(payload.variables, MAX_VARIABLE_DEPTH)) {
          return [
            new GraphQLError(`Variables may be nested at most ${MAX_VARIABLE_DEPTH} levels deep`, {
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          ];
        }
        const coerced = getVariableValues(deps.schema, operation.variableDefinitions ?? [], payload.variables ?? {}, {
          maxErrors: 10,
        });
        if (coerced.errors)
          return coerced.errors.map(
            (e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'BAD_USER_INPUT' } }),
          );
        active.set(socket, (active.get(socket) ?? 0) + 1);
        clearTimeout(idle.get(socket));
        idle.delete(socket);
        const requestId = randomUUID();
        const context = createContext({
          requestId,
          log: log.child({ requestId, ws: true }),
          config,
          store: deps.store,
          mailer: deps.mailer,
          viewer: ctx.extra.viewer ?? null,
          clientIp: ctx.extra.clientIp,
        });
        // Surrogate keys belong to cacheable HTTP answers: a subscription would keep an unused collector for its life.
        context.http = {};
        context.live = {
          hub: deps.hub,
          connection: new SocketConnection(socket, config.live, log),
          subscriptionId: id,
        };
        const args: ExecutionArgs = {
          schema: deps.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: context,
        };
        return args;
      },
      onComplete: (ctx) => {
        const socket = ctx.extra.socket;
        // After a close (graphql-ws ends the subscriptions once our 'close' handler has forgotten the socket).
        if (socket.readyState !== socket.OPEN) return;
        const left = Math.max(0, (active.get(socket) ?? 1) - 1);
        active.set(socket, left);
        if (left === 0) armIdle(socket);
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors?.length ? formatResult(result) : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
    },
    wss,
    config.live.keepAliveMs,
    log,
  );

  return {
    get connections() {
      return wss.clients.size;
    },
    get subscriptions() {
      return deps.hub.subscriberCount;
    },
    get trackedSockets() {
      return new Set([...active.keys(), ...idle.keys(), ...lifetimes.sockets()]).size;
    },
    async close() {
      deps.server.off('upgrade', onUpgrade);
      lifetimes.close();
      // graphql-ws closes every connection with 1001 (going away); clients that do not answer are cut off.
      const disposed = Promise.resolve(disposable.dispose()).catch(() => undefined);
      await Promise.race([disposed, new Promise((r) => setTimeout(r, 2_000).unref())]);
      for (const socket of wss.clients) socket.terminate();
      await disposed;
      await deps.hub.close();
    },
  };
}
