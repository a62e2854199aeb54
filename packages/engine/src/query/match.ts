// A document a query matched, as its executors pass it on: its stored bytes, decoded whole only when asked for,
// or (from a `$text` search whose reader named the fields it reads) just those fields.
import type { Document } from 'bson';
import { decode } from '../storage/bsonio.js';
import { decodeFields, type NameSet } from '../storage/rawdoc.js';
import type { Rid } from '../storage/index-keys.js';

export interface Match {
  rid: Rid;
  doc: Document;
  bytes: Buffer;
}

/** A matching stored document, decoded whole the first time `doc` is read. */
export class StoredMatch implements Match {
  constructor(
    readonly rid: Rid,
    /** Undefined when only `part` was kept. */
    private readonly stored: Buffer | undefined,
    private decoded?: Document,
    /** Its text score, for a filter with a `$text` (query/text.ts). */
    readonly score?: number,
    /** The fields its reader asked for, decoded when the match was made (the bytes are then not kept). */
    private readonly part?: Document,
  ) {}

  get bytes(): Buffer {
    if (!this.stored) throw new Error('a match kept for some of its fields has no stored bytes');
    return this.stored;
  }

  get doc(): Document {
    return (this.decoded ??= decode(this.bytes));
  }

  /** A document holding at least the top-level fields in `names` (the whole one if already decoded). */
  fields(names: NameSet | undefined): Document {
    return this.decoded ?? this.part ?? (names && decodeFields(this.bytes, names)) ?? this.doc;
  }
}
