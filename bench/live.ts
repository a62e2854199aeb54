// `npm run bench:live [-- --subscribers 1000 --rate 10 --seconds 30 --gateways 1]`: the live fan-out scenario.
// Starts the engine and the service (or several, each with its own change stream on the one store) as their own
// processes, opens N graphql-transport-ws subscribers on one live blog, split evenly between the services,
// then writes messages at a steady rate straight into the store (the way another system would; the
// editors' mutation is rate-limited far below this) and measures, per delivered message, the time from
// the write to its receipt, messages lost, and the service's resident memory per idle subscriber.
// The subscribers run in this process: on a small machine they share its cores with the service.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import WebSocket from 'ws';
import { currentLoad, describeMachine } from './machine.js';
import { rssMiB, sleep, stopAll } from './procs.js';
import { DB_NAME, startEngine, startService, type Service } from './stack.js';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const BLOG = 'bench-live-blog';
const QUERY = `subscription { liveBlogMessageAdded(liveBlogId: "${BLOG}") { id text } }`;
const SUBSCRIBE = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY } });
/** Subscribers connecting at once. */
const OPEN_BATCH = 200;

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

/** What a subscriber hears: a message's id and text, or the connection's end. */
type OnMessage = (id: string, text: string) => void;

/**
 * One subscriber as a bare `ws` socket speaking graphql-transport-ws: connection_init, then one subscribe once
 * acknowledged. A full graphql-ws client per subscriber costs the bench more than the service it measures.
 * Resolves once the subscribe was sent; rejects when the socket fails before that.
 */
function openSubscriber(url: string, onMessage: OnMessage, onClose: (code: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false });
    ws.on('open', () => ws.send('{"type":"connection_init"}'));
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += String(c)));
      res.on('end', () => reject(new Error(`the service refused a subscriber: ${res.statusCode} ${body}`)));
    });
    ws.on('close', (code) => onClose(code));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as {
        type: string;
        payload?: { data?: { liveBlogMessageAdded?: { id: string; text: string } } };
      };
      if (msg.type === 'next') {
        const m = msg.payload?.data?.liveBlogMessageAdded;
        if (m) onMessage(m.id, m.text);
      } else if (msg.type === 'connection_ack') {
        ws.send(SUBSCRIBE);
        resolve(ws);
      } else if (msg.type === 'ping') ws.send('{"type":"pong"}');
      else if (msg.type === 'error') log(`subscriber error: ${JSON.stringify(msg).slice(0, 200)}`);
    });
  });
}

/**
 * Waits until `url` takes WebSocket connections: a service answers /readyz as soon as it listens, while its live
 * half may still be starting (an upgrade before then is answered as a plain HTTP request).
 */
async function liveReady(url: string): Promise<void> {
  for (const deadline = Date.now() + 120_000; ; await sleep(500)) {
    const probe = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false });
      ws.on('open', () => ws.send('{"type":"connection_init"}'));
      ws.on('message', () => {
        resolve(true);
        ws.close();
      });
      ws.on('error', () => resolve(false));
      ws.on('close', () => resolve(false));
    }).catch(() => false);
    if (probe) return;
    if (Date.now() > deadline) throw new Error(`${url} took no WebSocket connection within two minutes`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      subscribers: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      gateways: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const subscribers = Number(values.subscribers ?? 1000);
  const rate = Number(values.rate ?? 10);
  const seconds = Number(values.seconds ?? 30);
  const gateways = Number(values.gateways ?? 1);
  const dbPath = mkdtempSync(join(tmpdir(), 'bench-live-'));
  const sockets: WebSocket[] = [];
  // Set once the figures are out: the sockets closed by the clean-up are not the service's doing.
  let finished = false;
  const services: Service[] = [];
  try {
    log(`machine: ${JSON.stringify(describeMachine())}`);
    log(`load before: ${currentLoad()}`);
    const engine = await startEngine(dbPath);
    const mongo = await MongoClient.connect(engine.uri);
    const db = mongo.db(DB_NAME);
    await db.collection('liveBlogs').insertOne({
      _id: BLOG,
      title: 'Bench',
      startDate: new Date(),
      endDate: null,
      websocketRoomName: 'bench-room',
      lastSeq: 0,
    } as never);
    // Each gateway is its own process on the one store, with its own change stream. --profile <dir>: each
    // writes a CPU profile there when it stops.
    for (let g = 0; g < gateways; g++)
      services.push(
        await startService(
          engine.uri,
          { LIVE_MAX_SUBSCRIPTIONS: '5' },
          [
            ...(values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : []),
            // BENCH_LIVE_SNAPSHOT=1: each writes a heap snapshot (into the project's directory) once subscribers idle.
            ...(process.env.BENCH_LIVE_SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2'] : []),
          ],
          `service${g + 1}`,
        ),
      );
    const wsUrls = services.map((s) => `${s.url.replace(/^http/, 'ws')}/graphql`);
    for (const url of wsUrls) await liveReady(url);
    await sleep(2000);
    const pids = services.map((s) => s.proc.pid);
    const rssOf = (): number => pids.reduce((sum, pid) => sum + rssMiB(pid)!, 0);
    const rssBefore = rssOf();

    // Per message id: how many subscribers got it, and each receipt's delay.
    const sentAt = new Map<string, number>();
    const received = new Map<string, number>();
    const delays: number[] = [];
    let warm = 0;
    let closed = 0;
    const onMessage: OnMessage = (id, text) => {
      if (text === 'warm-up') return void warm++;
      received.set(id, (received.get(id) ?? 0) + 1);
      const t = sentAt.get(id);
      if (t !== undefined) delays.push(performance.now() - t);
    };
    const onClose = (code: number): void => {
      if (finished) return;
      if (closed++ < 5) log(`a subscriber's connection closed: ${code}`);
    };
    // Opened a batch at a time, the subscribers split evenly between the gateways; the resident memory is read
    // again once half of them are open. Between the two readings the service's fixed costs (code, the heap's young
    // generation, which grows to its 64 MiB semi-spaces under the connection storm) are paid already: the
    // difference per subscriber is what one more idle subscriber costs.
    const half = Math.floor(subscribers / 2);
    let rssHalf = 0;
    for (let i = 0; i < subscribers; i += OPEN_BATCH) {
      const batch = [];
      for (let j = i; j < Math.min(subscribers, i + OPEN_BATCH); j++)
        batch.push(openSubscriber(wsUrls[j % gateways]!, onMessage, onClose));
      sockets.push(...(await Promise.all(batch)));
      if (sockets.length >= half && rssHalf === 0) {
        await sleep(5000);
        rssHalf = rssOf();
      }
    }
    // Every subscriber registered: one message reaches all of them.
    let seq = 0;
    const message = (text: string) => ({
      _id: `bench-${++seq}`,
      liveBlogId: BLOG,
      seq,
      timestamp: new Date(),
      text,
      title: null,
      minute: null,
      additionalMinute: null,
      typeId: null,
      imageLetter: null,
      highlight: false,
      htmlContent: '<p>A typical live-blog update of a couple of sentences.</p>',
      userDisplayName: 'Bench',
      userThumbnailUrl: null,
    });
    for (let tries = 0; warm < subscribers && tries < 120; tries++) {
      warm = 0;
      await db.collection('liveBlogMessages').insertOne(message('warm-up') as never);
      await sleep(1000);
    }
    log(`${warm}/${subscribers} subscribers registered`);
    await sleep(5000);
    const rssIdle = rssOf();
    if (process.env.BENCH_LIVE_SNAPSHOT) {
      for (const pid of pids) process.kill(pid, 'SIGUSR2');
      await sleep(120_000);
    }

    const total = rate * seconds;
    const serviceCpuBefore = pids.map(cpuSeconds);
    const benchCpuBefore = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const doc = message(`m${i}`);
      sentAt.set(doc._id, performance.now());
      await db.collection('liveBlogMessages').insertOne(doc as never);
    }
    const rssLoaded = rssOf();
    // Stragglers: until nothing arrived for five seconds (two minutes at most). What never arrives is lost.
    for (let last = -1, quiet = 0, t = 0; quiet < 5 && t < 120; t++) {
      await sleep(1000);
      quiet = delays.length === last ? quiet + 1 : 0;
      last = delays.length;
    }
    const serviceCpu = pids.reduce((sum, pid, g) => sum + cpuSeconds(pid) - serviceCpuBefore[g]!, 0);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const expected = total * subscribers;
    const got = [...sentAt.keys()].reduce((s, id) => s + Math.min(subscribers, received.get(id) ?? 0), 0);
    delays.sort((a, b) => a - b);
    log('');
    log(`gateways                     ${gateways}`);
    log(`subscribers                  ${subscribers}`);
    log(`messages posted              ${total} at ${rate}/s`);
    log(`deliveries expected          ${expected}`);
    log(`deliveries received          ${got}`);
    log(`messages lost                ${expected - got}`);
    log(`connections closed           ${closed}`);
    log(`post-to-receipt p50 (ms)     ${percentile(delays, 50).toFixed(1)}`);
    log(`post-to-receipt p99 (ms)     ${percentile(delays, 99).toFixed(1)}`);
    log(`post-to-receipt max (ms)     ${(delays.at(-1) ?? NaN).toFixed(1)}`);
    log(`service RSS before (MiB)     ${rssBefore}`);
    log(`service RSS idle subs (MiB)  ${rssIdle}`);
    log(`service RSS under load (MiB) ${rssLoaded}`);
    log(`service CPU per message (ms) ${((serviceCpu * 1000) / total).toFixed(1)} (fan-out to ${subscribers})`);
    log(
      `clients' CPU per message (ms) ${((benchCpu.user + benchCpu.system) / 1000 / total).toFixed(1)} (this process)`,
    );
    log(
      `memory per idle subscriber   ${(((rssIdle - rssBefore) * 1024) / subscribers).toFixed(1)} KiB (all of the growth)`,
    );
    log(
      `  the second half's          ${(((rssIdle - rssHalf) * 1024) / (subscribers - half)).toFixed(1)} KiB (RSS at ${half}: ${rssHalf} MiB)`,
    );
    log(`load after: ${currentLoad()}`);
    await mongo.close();
  } catch (err) {
    for (const s of services) log(`${s.proc.name} said:\n${s.proc.err().slice(-2000)}${s.proc.out().slice(-2000)}`);
    throw err;
  } finally {
    finished = true;
    for (const ws of sockets) ws.terminate();
    await stopAll();
    rmSync(dbPath, { recursive: true, force: true });
  }
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench:live failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await stopAll();
  process.exit(1);
});
