// `npm run bench:live [-- --subscribers 1000 --rate 10 --seconds 30]`: the live fan-out scenario. Starts
// the engine and the service as their own processes, opens N graphql-ws subscribers on one live blog,
// then writes messages at a steady rate straight into the store (the way another system would; the
// editors' mutation is rate-limited far below this) and measures, per delivered message, the time from
// the write to its receipt, messages lost, and the service's resident memory per idle subscriber.
// The subscribers run in this process: on a small machine they share its cores with the service.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, type Client } from 'graphql-ws';
import { MongoClient } from 'mongodb';
import WebSocket from 'ws';
import { currentLoad, describeMachine } from './machine.js';
import { rssMiB, sleep, stopAll } from './procs.js';
import { DB_NAME, startEngine, startService } from './stack.js';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const BLOG = 'bench-live-blog';
const QUERY = `subscription { liveBlogMessageAdded(liveBlogId: "${BLOG}") { id text } }`;

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      subscribers: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const subscribers = Number(values.subscribers ?? 1000);
  const rate = Number(values.rate ?? 10);
  const seconds = Number(values.seconds ?? 30);
  const dbPath = mkdtempSync(join(tmpdir(), 'bench-live-'));
  const clients: Client[] = [];
  try {
    log(`machine: ${JSON.stringify(describeMachine())}`);
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
    // --profile <dir>: the service writes a CPU profile there when it stops.
    const service = await startService(
      engine.uri,
      { LIVE_MAX_SUBSCRIPTIONS: '5' },
      values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [],
    );
    const wsUrl = `${service.url.replace(/^http/, 'ws')}/graphql`;
    await sleep(1000);
    const rssBefore = rssMiB(service.proc.pid)!;

    // Per message id: how many subscribers got it, and each receipt's delay.
    const sentAt = new Map<string, number>();
    const received = new Map<string, number>();
    const delays: number[] = [];
    let warm = 0;
    for (let i = 0; i < subscribers; i++) {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => undefined,
      });
      clients.push(client);
      client.subscribe<{ liveBlogMessageAdded: { id: string; text: string } }>(
        { query: QUERY },
        {
          next: (r) => {
            const m = r.data?.liveBlogMessageAdded;
            if (!m) return;
            if (m.text === 'warm-up') return void warm++;
            received.set(m.id, (received.get(m.id) ?? 0) + 1);
            const t = sentAt.get(m.id);
            if (t !== undefined) delays.push(performance.now() - t);
          },
          error: (e) => log(`subscriber error: ${JSON.stringify(e).slice(0, 200)}`),
          complete: () => undefined,
        },
      );
      if (i % 100 === 99) await sleep(50);
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
    await sleep(2000);
    const rssIdle = rssMiB(service.proc.pid)!;

    const total = rate * seconds;
    const serviceCpuBefore = cpuSeconds(service.proc.pid);
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
    const rssLoaded = rssMiB(service.proc.pid)!;
    await sleep(5000); // stragglers
    const serviceCpu = cpuSeconds(service.proc.pid) - serviceCpuBefore;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const expected = total * subscribers;
    const got = [...sentAt.keys()].reduce((s, id) => s + Math.min(subscribers, received.get(id) ?? 0), 0);
    delays.sort((a, b) => a - b);
    log('');
    log(`subscribers                  ${subscribers}`);
    log(`messages posted              ${total} at ${rate}/s`);
    log(`deliveries expected          ${expected}`);
    log(`deliveries received          ${got}`);
    log(`messages lost                ${expected - got}`);
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
    log(`memory per idle subscriber   ${(((rssIdle - rssBefore) * 1024) / subscribers).toFixed(1)} KiB`);
    log(`load after: ${currentLoad()}`);
    await mongo.close();
  } finally {
    for (const c of clients) await c.dispose();
    await stopAll();
    rmSync(dbPath, { recursive: true, force: true });
  }
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench:live failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await stopAll();
  process.exit(1);
});
