// Store projections narrowed to what one operation reads. A loader declares the full projection of its
// documents (every field the API maps) and, per API field, the stored fields it reads; when the operation's
// selection is known, the loader reads only the union of those for the fields selected. A selected field the
// map does not know, and whose name is no stored field, reads everything: narrowing is only ever an optimisation.
import type { Document } from 'mongodb';

export interface ProjectedType {
  /** The GraphQL object type the documents become. */
  graphqlType: string;
  /** API field -> stored fields it reads, where they differ from the field's own name. */
  reads: Readonly<Record<string, readonly string[]>>;
}

/** Per selection, per full projection, per `always` list (joined): the narrowed projection. */
const narrowed = new WeakMap<ReadonlySet<string>, Map<Document, Map<string, Document>>>();

/**
 * `full` narrowed to what `selected` (the API fields of `type` an operation selects) reads, plus `always`
 * (fields the loader itself needs, e.g. sort keys for cursors). Without a selection, `full`.
 */
export function narrowProjection(
  full: Document,
  type: ProjectedType,
  selected: ReadonlySet<string> | undefined,
  always: readonly string[] = [],
): Document {
  if (!selected) return full;
  let byFull = narrowed.get(selected);
  if (!byFull) narrowed.set(selected, (byFull = new Map()));
  let byAlways = byFull.get(full);
  if (!byAlways) byFull.set(full, (byAlways = new Map()));
  const key = always.join(',');
  let projection = byAlways.get(key);
  if (!projection) byAlways.set(key, (projection = compute(full, type, selected, always)));
  return projection;
}

function compute(
  full: Document,
  type: ProjectedType,
  selected: ReadonlySet<string>,
  always: readonly string[],
): Document {
  const fields = new Set<string>(['_id', ...always]);
  for (const field of selected) {
    const reads = type.reads[field] ?? (field in full ? [field] : undefined);
    if (!reads) return full;
    for (const stored of reads) fields.add(stored);
  }
  return Object.fromEntries([...fields].filter((f) => f in full).map((f) => [f, 1]));
}
