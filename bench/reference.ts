// The two references the gateway is measured against, each a plain `node:http` server in its own process:
//   node dist/bench/reference.js ceiling --port P --fixtures F
//     answers every recorded request with the very bytes the gateway answered (status, headers, body)
//     and does nothing else: the most any server can do on this machine for these answers;
//   node dist/bench/reference.js minimal --port P --uri U --db D
//     makes the same store reads through the driver and serialises the same answers by hand
//     (bench/minimal-nested.ts, bench/minimal-issues.ts): the least work these answers need.
// Prints `listening <port>` when ready; SIGTERM closes it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { issuesAnswer } from './minimal-issues.js';
import { nestedAnswer } from './minimal-nested.js';
import { SMALL_QUERY, type RecordedAnswer } from './scenarios.js';
import { visibleArticle } from '../src/store/content/visibility.js';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function ceiling(fixtures: string): (req: IncomingMessage, res: ServerResponse) => void {
  const answers = new Map<string, { status: number; headers: Array<[string, string]>; body: Buffer }>();
  for (const a of JSON.parse(readFileSync(fixtures, 'utf8')) as RecordedAnswer[]) {
    const body = Buffer.from(a.bodyBase64, 'base64');
    answers.set(`${a.method} ${a.url}`, {
      status: a.status,
      headers: [...a.headers, ['content-length', String(body.length)]],
      body,
    });
  }
  return (req, res) => {
    const answer = answers.get(`${req.method} ${req.url}`);
    const send = (): void => {
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(answer.status, answer.headers.flat());
      res.end(answer.body);
    };
    // A request body (POST) is read to its end first, as any server must.
    if (req.method === 'POST') {
      req.resume();
      req.once('end', send);
    } else send();
  };
}

function minimal(client: MongoClient, dbName: string): (req: IncomingMessage, res: ServerResponse) => void {
  const db = client.db(dbName);
  // Commands by name and collection, and the time each took (for the report: which reads cost what).
  const commands = new Map<string, number>();
  const started = new Map<number, string>();
  const add = (key: string, n: number): void => void commands.set(key, (commands.get(key) ?? 0) + n);
  client.on('commandStarted', (e) => {
    if (e.commandName === 'hello' || e.commandName === 'endSessions') return;
    const key = `${e.commandName} ${String(e.command[e.commandName])}`;
    started.set(e.requestId, key);
    add(key, 1);
  });
  client.on('commandSucceeded', (e) => {
    const key = started.get(e.requestId);
    if (key === undefined) return;
    started.delete(e.requestId);
    add(`${key} ms`, e.duration);
  });
  const json = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  };
  const fail = (res: ServerResponse, err: unknown): void => json(res, 500, JSON.stringify({ error: String(err) }));
  return (req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'POST' && url === '/graphql') {
      readBody(req)
        .then(async (raw) => {
          const { query, variables } = JSON.parse(raw.toString('utf8')) as {
            query: string;
            variables: { id: string; first: number };
          };
          if (query === SMALL_QUERY) {
            // One article by id, visible ones only, its id and title.
            const doc = await db
              .collection<{ _id: string; title: string }>('articles')
              .findOne({ ...visibleArticle, _id: variables.id } as never, { projection: { _id: 1, title: 1 } });
            json(res, 200, JSON.stringify({ data: { article: doc ? { id: doc._id, title: doc.title } : null } }), {
              'cache-control': 'max-age=60, public',
            });
            return;
          }
          json(res, 200, await nestedAnswer(db, variables.id, variables.first), {
            'cache-control': 'max-age=60, public',
          });
        })
        .catch((err: unknown) => fail(res, err));
      return;
    }
    const issues = /^\/cms\/page\/([A-Za-z0-9_.:-]{1,64})\/issues\?limit=(\d{1,3})$/.exec(url);
    if (req.method === 'GET' && issues) {
      issuesAnswer(db, issues[1]!, Number(issues[2]))
        .then((body) => {
          const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
          json(res, 200, body, { etag, 'cache-control': 'public, max-age=60' });
        })
        .catch((err: unknown) => fail(res, err));
      return;
    }
    if (req.method === 'GET' && url === '/__commands') {
      json(res, 200, JSON.stringify(Object.fromEntries(commands)));
      return;
    }
    res.writeHead(404).end();
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '0' },
      fixtures: { type: 'string' },
      uri: { type: 'string' },
      db: { type: 'string' },
    },
  });
  const mode = positionals[0];
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  let client: MongoClient | undefined;
  if (mode === 'ceiling') {
    handler = ceiling(values.fixtures!);
  } else if (mode === 'minimal') {
    // The gateway's driver settings (src/store/store.ts), so both read through the same kind of pool.
    client = new MongoClient(values.uri!, {
      maxPoolSize: 50,
      monitorCommands: true,
      heartbeatFrequencyMS: 2_000,
      socketTimeoutMS: 30_000,
    });
    await client.connect();
    handler = minimal(client, values.db!);
  } else {
    throw new Error('usage: reference.js <ceiling|minimal> --port P [--fixtures F | --uri U --db D]');
  }
  const server = createServer(handler);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(Number(values.port), '127.0.0.1', resolve));
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
    void (client?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`reference failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
