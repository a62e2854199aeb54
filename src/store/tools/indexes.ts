// Index and collection definitions carried from one store to another: listIndexes documents become
// createIndexes specifications with every option passed through (unique, sparse, partial, TTL, collation...),
// minus what describes the source rather than the index (`v`, `ns`). The target refuses what it cannot build,
// and that refusal is reported with the collection's name.
import type { Db, Document } from 'mongodb';
import { ToolError } from './errors.js';

const SOURCE_ONLY = new Set(['v', 'ns']);

const isIdIndex = (spec: Document): boolean => spec.name === '_id_';
export const isTtlIndex = (spec: Document): boolean => spec.expireAfterSeconds !== undefined;

/** The collection's indexes as listIndexes returns them, numbers in their BSON types. */
export async function readIndexes(db: Db, name: string): Promise<Document[]> {
  return db.collection(name).listIndexes({ promoteValues: false }).toArray();
}

export async function createIndexes(db: Db, name: string, specs: Document[]): Promise<void> {
  const wanted = specs
    .filter((s) => !isIdIndex(s))
    .map((s) => Object.fromEntries(Object.entries(s).filter(([k]) => !SOURCE_ONLY.has(k))));
  if (wanted.length === 0) return;
  try {
    await db.command({ createIndexes: name, indexes: wanted });
  } catch (err) {
    throw new ToolError(
      `creating the indexes of "${name}" (${wanted.map((s) => String(s.name)).join(', ')}) failed: ${(err as Error).message}`,
    );
  }
}

/** Creates the collection with its options (collation, validator, ...) unless it exists; nothing for no options. */
export async function createCollection(db: Db, name: string, options: Document): Promise<void> {
  const passed = Object.fromEntries(Object.entries(options).filter(([k]) => k !== 'uuid'));
  if (Object.keys(passed).length === 0) return;
  const exists = (await db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
  if (exists) return;
  try {
    await db.command({ create: name, ...passed });
  } catch (err) {
    throw new ToolError(
      `creating the collection "${name}" with options ${JSON.stringify(passed)} failed: ${(err as Error).message}`,
    );
  }
}
