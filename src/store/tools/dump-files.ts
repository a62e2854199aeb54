// Finding a dump's files: the database directory under a mongodump output directory (or that directory
// itself), and per collection its .bson and .metadata.json files, gzipped or not, as mongorestore names them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DumpFormatError, ToolError } from './errors.js';

export interface DumpCollectionFiles {
  name: string;
  bson?: string;
  metadata?: string;
}

const PATTERN = /^(.+?)\.(bson|metadata\.json)(\.gz)?$/;
const SERVER_DATABASES = new Set(['admin', 'config', 'local']);

function dumpFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((f) => PATTERN.test(f) && statSync(join(dir, f)).isFile());
}

/** The database directory of a dump: `input` itself when it holds .bson files, else its one database subdirectory. */
export function databaseDirectory(input: string, sourceDb?: string): string {
  if (!existsSync(input) || !statSync(input).isDirectory()) throw new ToolError(`${input}: no such directory`);
  if (sourceDb) {
    const dir = join(input, sourceDb);
    if (!existsSync(dir)) throw new ToolError(`${input}: no database directory "${sourceDb}" in the dump`);
    return dir;
  }
  if (dumpFilesIn(input).some((f) => !f.startsWith('oplog.'))) return input;
  const databases = readdirSync(input).filter(
    (d) => !SERVER_DATABASES.has(d) && statSync(join(input, d)).isDirectory() && dumpFilesIn(join(input, d)).length > 0,
  );
  if (databases.length === 1) return join(input, databases[0]!);
  if (databases.length === 0)
    throw new ToolError(
      `${input}: no dump here (no <collection>.bson or .metadata.json files, nor a database directory holding them)`,
    );
  throw new ToolError(
    `${input}: the dump holds several databases (${databases.join(', ')}); choose one with --source-db`,
  );
}

/** The collections of a database directory, system.* left out. */
export function collectionFiles(dir: string): DumpCollectionFiles[] {
  const byName = new Map<string, DumpCollectionFiles>();
  for (const file of dumpFilesIn(dir)) {
    const [, name, kind] = PATTERN.exec(file)!;
    if (name!.startsWith('system.')) continue;
    const entry = byName.get(name!) ?? { name: name! };
    const key = kind === 'bson' ? 'bson' : 'metadata';
    if (entry[key]) throw new ToolError(`${dir}: both ${name}.${kind} and ${name}.${kind}.gz are present; remove one`);
    entry[key] = join(dir, file);
    byName.set(name!, entry);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export const isGzip = (file: string): boolean => file.endsWith('.gz');

/** A metadata file's text, gunzipped when its name ends in .gz. */
export async function readMetadataText(file: string): Promise<string> {
  const bytes = await readFile(file);
  if (!isGzip(file)) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (err) {
    throw new DumpFormatError(file, undefined, `not a readable gzip file: ${(err as Error).message}`);
  }
}
