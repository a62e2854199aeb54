// `store restore`: loads a dump in mongodump's layout (ours or mongodump's own). Everything is read and
// checked before anything is written: every metadata file parsed, every .bson file framed and decoded to
// its end, so a truncated file, a bad length prefix or a wrong metadata shape stops the restore with the
// file and offset named and the target untouched. The target has no renameCollection to swap temporary
// collections in (the embedded engine lacks it); a write that fails later (the store goes away, a unique
// index the data breaks) drops the collections this run created, leaving them as before the restore.
import type { Db } from 'mongodb';
import { decodeExact, readBsonFile } from './bson-file.js';
import { nonEmpty, refuseNonEmpty } from './copy.js';
import { DigestAccumulator, summarize, type CollectionSummary } from './digest.js';
import { collectionFiles, databaseDirectory, isGzip, readMetadataText } from './dump-files.js';
import { ToolError } from './errors.js';
import { createCollection, createIndexes } from './indexes.js';
import { parseMetadata, type CollectionMetadata } from './metadata.js';
import type { Progress } from './progress.js';
import { select, type SelectionOptions } from './selection.js';
import { writeAll } from './writer.js';

export interface RestoreOptions extends SelectionOptions {
  drop?: boolean;
  /** The database directory to take from a dump holding several. */
  sourceDb?: string;
  batchSize?: number;
  progress: Progress;
}

interface Checked {
  name: string;
  /** `_id`s of documents not to restore (--no-secrets). */
  leaveOut: ReadonlySet<unknown>;
  bson?: string;
  metadata: CollectionMetadata;
  expected: CollectionSummary;
}

export interface RestoreReport {
  directory: string;
  collections: Array<{ name: string; expected: CollectionSummary; restored: CollectionSummary; same: boolean }>;
  skipped: string[];
  seconds: number;
}

/** Reads and checks every selected file of the dump; throws DumpFormatError on the first bad one. */
async function check(directory: string, opts: RestoreOptions): Promise<{ checked: Checked[]; skipped: string[] }> {
  const files = collectionFiles(directory);
  const plans = select(
    files.map((f) => f.name),
    opts,
  );
  const checked: Checked[] = [];
  const skipped: string[] = [];
  for (const plan of plans) {
    const f = files.find((x) => x.name === plan.name)!;
    const metadata = f.metadata
      ? parseMetadata(f.metadata, await readMetadataText(f.metadata), f.name)
      : parseMetadata('', '', f.name);
    if (metadata.type !== 'collection') {
      skipped.push(`${f.name} (a ${metadata.type})`);
      continue;
    }
    const leaveOut = new Set<unknown>(plan.leaveOut);
    const acc = new DigestAccumulator();
    if (f.bson)
      for await (const { bytes } of readBsonFile(f.bson, isGzip(f.bson))) if (!leftOut(leaveOut, bytes)) acc.add(bytes);
    checked.push({ name: f.name, leaveOut, bson: f.bson, metadata, expected: acc.summary() });
  }
  return { checked, skipped };
}

/** Whether the document is one of the `_id`s to leave out (decoded only when there are any). */
const leftOut = (leaveOut: ReadonlySet<unknown>, bytes: Buffer): boolean =>
  leaveOut.size > 0 && leaveOut.has(decodeExact(bytes)._id);

export async function restoreStore(
  input: string,
  to: { db: Db; label: string },
  opts: RestoreOptions,
): Promise<RestoreReport> {
  const started = performance.now();
  const directory = databaseDirectory(input, opts.sourceDb);
  const { checked, skipped } = await check(directory, opts);
  if (checked.length === 0)
    throw new ToolError(`${directory}: nothing to restore${skipped.length ? ` (skipped: ${skipped.join(', ')})` : ''}`);
  if (!opts.drop)
    refuseNonEmpty(
      to.label,
      await nonEmpty(
        to.db,
        checked.map((c) => c.name),
      ),
      'pass --drop to replace those collections',
    );
  if (opts.drop)
    for (const c of checked)
      await to.db
        .collection(c.name)
        .drop()
        .catch(() => undefined);

  // Collections that existed before (empty, or dropped just now by --drop) are emptied again on failure,
  // not dropped: their options and indexes are the gateway's.
  const existed = new Set(
    opts.drop ? [] : (await to.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name),
  );
  const written: string[] = [];
  try {
    for (const c of checked) {
      written.push(c.name);
      await createCollection(to.db, c.name, c.metadata.options);
      opts.progress.start(c.name, c.expected.count);
      if (c.bson) {
        const docs = (async function* () {
          // Checked whole before any write; decodeExact still throws if the file changed since.
          for await (const { bytes } of readBsonFile(c.bson!, isGzip(c.bson!), { validate: false })) {
            const doc = decodeExact(bytes);
            if (!c.leaveOut.has(doc._id)) yield doc;
          }
        })();
        await writeAll(to.db, c.name, docs, {
          batchSize: opts.batchSize ?? 1000,
          mode: 'insert',
          written: (n) => opts.progress.advance(c.name, n),
        });
      }
      await createIndexes(to.db, c.name, c.metadata.indexes);
    }
  } catch (err) {
    opts.progress.stop();
    for (const name of written) {
      const coll = to.db.collection(name);
      await (existed.has(name) ? coll.deleteMany({}) : coll.drop()).catch(() => undefined);
    }
    throw new ToolError(
      `${(err as Error).message}\nwhat this restore had written (${written.join(', ')}) was removed again`,
    );
  }
  opts.progress.stop();
  const collections: RestoreReport['collections'] = [];
  for (const c of checked) {
    const restored = await summarize(to.db, c.name);
    collections.push({
      name: c.name,
      expected: c.expected,
      restored,
      same: restored.count === c.expected.count && restored.digest === c.expected.digest,
    });
  }
  return { directory, collections, skipped, seconds: (performance.now() - started) / 1000 };
}
