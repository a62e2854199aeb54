// Opaque, tamper-proof connection cursors. A cursor is `<payload>.<tag>`: the payload is base64url of EJSON
// `[offset, sortKeys]` (so dates survive the trip), the tag an HMAC-SHA256 (128 bits) over the connection that
// issued it — its name, its parent and the arguments that shape the list — and the payload. A cursor of another
// connection, parent or filter, or altered in any byte, fails the check and is BAD_USER_INPUT, never an empty
// page; the values of a good one are checked against the connection's sort key types before they reach a filter.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BSON } from 'mongodb';
import { badRequest } from '../errors.js';
import type { Position, SortSpec } from '../store/content/paging.js';

// The driver's own copy of bson: importing the package directly would load a second one at every start.
const { EJSON } = BSON;

type SortKeyType = 'string' | 'date' | 'int' | 'number';

/** A kind of connection: its name in the schema, its order, and the type of each sort key (`?`: may be null). */
export interface ConnectionKind {
  name: string;
  sort: SortSpec;
  types: ReadonlyArray<SortKeyType | `${SortKeyType}?`>;
}

/** One connection: its kind, the parent it lists the children of, and the arguments that change its items. */
export interface Binding {
  kind: ConnectionKind;
  parent?: string;
  args?: ReadonlyArray<string | number | boolean | null>;
}

const TAG_BYTES = 16;
/** Ours are well under this; anything longer is not worth decoding. */
const MAX_CURSOR = 512;

const KEY_CHECKS: Record<SortKeyType, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  date: (v) => v instanceof Date && !Number.isNaN(v.getTime()),
  int: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
};

function keysMatch(keys: unknown, kind: ConnectionKind): keys is unknown[] {
  if (!Array.isArray(keys) || keys.length !== kind.types.length) return false;
  return kind.types.every((type, i) => {
    const value: unknown = keys[i];
    const nullable = type.endsWith('?');
    if (value === null) return nullable;
    return KEY_CHECKS[(nullable ? type.slice(0, -1) : type) as SortKeyType](value);
  });
}

export class CursorCodec {
  /** `keys[0]` signs; every key verifies (rotation). */
  constructor(private readonly keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('CursorCodec needs at least one key');
  }

  private tag(key: Buffer, binding: Binding, payload: string): Buffer {
    const scope = JSON.stringify([binding.kind.name, binding.parent ?? null, binding.args ?? null]);
    return createHmac('sha256', key).update(scope).update('\n').update(payload).digest().subarray(0, TAG_BYTES);
  }

  encode(binding: Binding, position: Position): string {
    const payload = Buffer.from(EJSON.stringify([position.offset, position.keys ?? null], { relaxed: true })).toString(
      'base64url',
    );
    return `${payload}.${this.tag(this.keys[0]!, binding, payload).toString('base64url')}`;
  }

  /** The position `cursor` stands for in this connection; BAD_USER_INPUT when this connection did not issue it. */
  decode(binding: Binding, cursor: string | null | undefined, field = 'after'): Position | null {
    if (cursor === null || cursor === undefined) return null;
    const position = cursor.length <= MAX_CURSOR ? this.verified(binding, cursor) : undefined;
    if (position) return position;
    throw badRequest(`${field} is not a cursor of this connection (${binding.kind.name})`, [
      { field, message: 'Invalid cursor' },
    ]);
  }

  private verified(binding: Binding, cursor: string): Position | undefined {
    const [payload, tagText, extra] = cursor.split('.');
    if (!payload || !tagText || extra !== undefined) return undefined;
    const tag = Buffer.from(tagText, 'base64url');
    if (tag.length !== TAG_BYTES || !this.keys.some((key) => timingSafeEqual(this.tag(key, binding, payload), tag)))
      return undefined;
    let decoded: unknown;
    try {
      decoded = EJSON.parse(Buffer.from(payload, 'base64url').toString('utf8'), { relaxed: true });
    } catch {
      return undefined;
    }
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [offset, keys] = decoded as [unknown, unknown];
    if (!Number.isSafeInteger(offset) || (offset as number) < 0) return undefined;
    if (keys === null) return { offset: offset as number };
    return keysMatch(keys, binding.kind) ? { offset: offset as number, keys } : undefined;
  }

  /** The cursor of the item just before `offset`: how REST's `page`/`limit` enter a connection. */
  beforeOffset(binding: Binding, offset: number): string | null {
    return offset > 0 ? this.encode(binding, { offset: offset - 1 }) : null;
  }
}

let processCodec: CursorCodec | undefined;

/** A codec keyed for this process only, for contexts built without the service's keys (tools, tests). */
export function processCursorCodec(): CursorCodec {
  return (processCodec ??= new CursorCodec([randomBytes(32)]));
}
