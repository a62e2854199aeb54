// Change events to several streams: `npm run bench:change-events -w @gateway/engine [-- --size 1000]` starts an
// in-memory engine child process, stores `size` article-like documents (about 9 KB each), opens the five change
// streams a gateway keeps on its database (two that keep where a change happened and its kind, a webhook feed
// with both images, a live feed of other collections, a clock that keeps the namespace), then updates each
// document once, one write at a time, and reports the engine's CPU per update until every stream has read its
// events, and the time that took.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MongoClient, type ChangeStream, type Document } from 'mongodb';
import { cpuMs, startEngineProcess, words } from './common.js';

const cli = fileURLToPath(new URL('../src/cli.js', import.meta.url));

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function startEngine(): Promise<{ proc: ChildProcess; uri: string }> {
  return startEngineProcess(cli);
}

const DATA = ['insert', 'update', 'replace', 'delete'];
const whereAndWhat = [
  { $match: { $or: [{ 'ns.coll': { $in: ['articles', 'issues', 'polls'] } }, { operationType: { $nin: DATA } }] } },
  { $project: { ns: 1, operationType: 1, documentKey: 1 } },
];

/** Each stream, and how many of the updates it reports. */
const STREAMS: Array<{ pipeline: Document[]; options: Document; reports: boolean }> = [
  { pipeline: whereAndWhat, options: {}, reports: true },
  { pipeline: whereAndWhat, options: {}, reports: true },
  {
    pipeline: [
      { $match: { 'ns.coll': { $in: ['articles', 'issues', 'products'] } } },
      { $match: { operationType: { $in: DATA } } },
    ],
    options: { fullDocument: 'whenAvailable', fullDocumentBeforeChange: 'whenAvailable' },
    reports: true,
  },
  {
    pipeline: [{ $match: { 'ns.coll': { $in: ['liveBlogMessages', 'polls'] }, operationType: { $in: DATA } } }],
    options: { fullDocument: 'updateLookup', fullDocumentBeforeChange: 'whenAvailable' },
    reports: false,
  },
  {
    pipeline: [{ $match: { 'ns.coll': { $in: ['articles', 'issues'] } } }, { $project: { ns: 1 } }],
    options: {},
    reports: true,
  },
];

const article = (i: number): Document => ({
  _id: `article-${i}`,
  status: 'scheduled',
  title: words(8, i),
  summary: words(25, i + 1),
  body: `<p>${words(1400, i + 2)}</p>`,
  authorIds: [`author-${i % 800}`],
  categoryIds: [`category-${i % 80}`],
  elements: { pollIds: [], quizIds: [], liveBlogIds: [] },
  seo: { title: words(6, i + 3), keywords: words(5, i + 4).split(' ') },
});

async function drained(stream: ChangeStream, wanted: number): Promise<void> {
  for (let got = 0; got < wanted;) if (await stream.tryNext()) got++;
}

async function main(): Promise<void> {
  const size = arg('size', 1000);
  const { proc, uri } = await startEngine();
  const client = await MongoClient.connect(uri, { maxPoolSize: 20 });
  try {
    const db = client.db('bench');
    const articles = db.collection('articles');
    for (let i = 0; i < size; i += 500)
      await articles.insertMany(Array.from({ length: Math.min(500, size - i) }, (_, k) => article(i + k)));
    const streams = STREAMS.map((s) => db.watch(s.pipeline, { ...s.options, maxAwaitTimeMS: 200 }));
    for (const s of streams) await s.tryNext();
    const cpu0 = cpuMs(proc.pid!);
    const started = performance.now();
    for (let i = 0; i < size; i++)
      await articles.updateOne(
        { _id: `article-${i}` as never },
        { $set: { status: 'published', publishedAt: new Date() } },
      );
    await Promise.all(streams.map((s, k) => (STREAMS[k]!.reports ? drained(s, size) : undefined)));
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuMs(proc.pid!) - cpu0;
    process.stdout.write(
      `${size} updates to five streams: engine CPU ${(cpu / size).toFixed(2)} ms per update, ` +
        `every stream read in ${seconds.toFixed(1)} s\n`,
    );
    await Promise.all(streams.map((s) => s.close()));
  } finally {
    await client.close();
    proc.kill('SIGTERM');
  }
}

await main();
