// `store dump`: the selected collections in mongodump's directory layout, so MongoDB's mongorestore loads it:
//   <out>/<db>/<collection>.bson            the documents, back to back, as the server returned them
//   <out>/<db>/<collection>.metadata.json   options, indexes, uuid, name, type (see metadata.ts)
// (`.gz` appended to both with --gzip). Each file is written under a temporary name and renamed when complete.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gzip as gzipCallback } from 'node:zlib';
import type { Db } from 'mongodb';
import { readIndexes } from './indexes.js';
import { metadataJson, uuidHex } from './metadata.js';
import type { Progress } from './progress.js';
import { listSourceCollections, select, type SelectionOptions } from './selection.js';

const gzipBuffer = promisify(gzipCallback);

export interface DumpOptions extends SelectionOptions {
  gzip?: boolean;
  progress: Progress;
}

export interface DumpReport {
  directory: string;
  collections: Array<{ name: string; documents: number; bytes: number }>;
  seconds: number;
}

const PRIVATE_FILE = 0o600;

export async function dumpStore(db: Db, out: string, opts: DumpOptions): Promise<DumpReport> {
  const started = performance.now();
  const directory = join(out, db.databaseName);
  // A dump can hold password hashes and signing keys: only its owner may read it.
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const sources = await listSourceCollections(db);
  const plans = select(
    sources.map((c) => c.name),
    opts,
  );
  const ext = opts.gzip ? '.gz' : '';
  const collections: DumpReport['collections'] = [];
  for (const plan of plans) {
    const source = sources.find((c) => c.name === plan.name)!;
    const indexes = source.type === 'collection' ? await readIndexes(db, plan.name) : [];
    const metadata = metadataJson({
      collectionName: plan.name,
      type: source.type,
      options: source.options,
      indexes,
      uuid: uuidHex(source.info),
    });
    await writeAtomically(join(directory, `${plan.name}.metadata.json${ext}`), async (tmp) =>
      writeFile(tmp, opts.gzip ? await gzipBuffer(metadata) : metadata, { mode: PRIVATE_FILE }),
    );
    if (source.type !== 'collection') continue;

    const coll = db.collection(plan.name);
    opts.progress.start(
      plan.name,
      Object.keys(plan.filter).length ? await coll.countDocuments(plan.filter) : await coll.estimatedDocumentCount(),
    );
    let documents = 0;
    let bytes = 0;
    async function* raw(): AsyncGenerator<Buffer> {
      for await (const doc of coll.find(plan.filter, { raw: true, batchSize: 1000 }) as AsyncIterable<unknown>) {
        const buf = doc as Buffer;
        documents++;
        bytes += buf.length;
        if (documents % 1000 === 0) opts.progress.advance(plan.name, 1000);
        yield buf;
      }
    }
    await writeAtomically(join(directory, `${plan.name}.bson${ext}`), (tmp) => {
      const sink: Writable = createWriteStream(tmp, { mode: PRIVATE_FILE });
      return opts.gzip ? pipeline(Readable.from(raw()), createGzip(), sink) : pipeline(Readable.from(raw()), sink);
    });
    opts.progress.advance(plan.name, documents % 1000);
    collections.push({ name: plan.name, documents, bytes });
  }
  opts.progress.stop();
  return { directory, collections, seconds: (performance.now() - started) / 1000 };
}

/** Writes through `write(tmp)` and renames `tmp` over `file`; nothing is left at `file` if writing fails. */
async function writeAtomically(file: string, write: (tmp: string) => Promise<unknown>): Promise<void> {
  const tmp = `${file}.partial`;
  try {
    await write(tmp);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
