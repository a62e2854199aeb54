// The unified test format's "Evaluating Matches": expected values (extended JSON, relaxed) against what the
// driver returned, with the $$ special operators, flexible numerics, and extra fields allowed only in
// root-level documents.
import { Binary, EJSON, Long } from 'bson';

export type Doc = Record<string, unknown>;

export class MatchError extends Error {}

/** Entities a match may refer to ($$matchesEntity, $$sessionLsid). */
export interface EntityLookup {
  entity(name: string): unknown;
  sessionLsid(name: string): unknown;
}

function isDoc(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if ('_bsontype' in v || v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v)) return false;
  return true;
}

function bsonType(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? 'int' : 'double';
  if (typeof v === 'bigint') return 'long';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  const t = (v as { _bsontype?: string })._bsontype;
  if (t)
    return (
      (
        {
          ObjectId: 'objectId',
          Int32: 'int',
          Double: 'double',
          Long: 'long',
          Decimal128: 'decimal',
          Binary: 'binData',
          BSONRegExp: 'regex',
          Code: 'javascript',
          MinKey: 'minKey',
          MaxKey: 'maxKey',
          Timestamp: 'timestamp',
          BSONSymbol: 'symbol',
        } as Record<string, string>
      )[t] ?? t
    );
  return 'object';
}

function typeMatches(expected: string, actual: unknown): boolean {
  const t = bsonType(actual);
  if (expected === 'number') return ['int', 'long', 'double', 'decimal'].includes(t);
  // The driver promotes numbers to JS numbers, so int/long/double cannot be told apart after decoding.
  if (['int', 'long', 'double'].includes(expected) && typeof actual === 'number') return true;
  return expected === t;
}

function isNumeric(v: unknown): boolean {
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  return typeof v === 'number' || typeof v === 'bigint' || t === 'Int32' || t === 'Double' || t === 'Long';
}

/**
 * The BSON type of a value by its `_bsontype` tag: the driver decodes with the CommonJS build of bson and
 * this file imports the ES module build, so their classes are not the same and `instanceof` fails across.
 */
function tagged(v: unknown, type: string): v is { _bsontype: string; toString(enc?: string): string } {
  return v !== null && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === type;
}

function bytesOf(b: { buffer: Uint8Array }): Buffer {
  return Buffer.from(b.buffer.buffer, b.buffer.byteOffset, b.buffer.byteLength);
}

function scalarEqual(expected: unknown, actual: unknown): boolean {
  if (isNumeric(expected) && isNumeric(actual))
    return Number(expected) === Number(actual) || (Number.isNaN(Number(expected)) && Number.isNaN(Number(actual)));
  if (tagged(expected, 'Decimal128') || tagged(actual, 'Decimal128'))
    return String(expected) === String(actual) && bsonType(expected) === bsonType(actual);
  if (tagged(expected, 'ObjectId'))
    return tagged(actual, 'ObjectId') && expected.toString('hex') === actual.toString('hex');
  if (expected instanceof Date) return actual instanceof Date && expected.getTime() === actual.getTime();
  if (expected instanceof Long) return isNumeric(actual) && expected.equals(Long.fromValue(actual as number));
  if (tagged(expected, 'Timestamp')) return tagged(actual, 'Timestamp') && String(expected) === String(actual);
  if (tagged(expected, 'Binary')) {
    const [e, a] = [expected as unknown as Binary, actual as unknown as Binary];
    return tagged(actual, 'Binary') && e.sub_type === a.sub_type && bytesOf(e).equals(bytesOf(a));
  }
  if (expected === null || typeof expected !== 'object') return expected === actual;
  return EJSON.stringify(expected as Doc, { relaxed: false }) === EJSON.stringify(actual as Doc, { relaxed: false });
}

function fail(path: string, msg: string): never {
  throw new MatchError(`${path || '(root)'}: ${msg}`);
}

function show(v: unknown): string {
  try {
    return EJSON.stringify(v as Doc, { relaxed: true });
  } catch {
    return String(v);
  }
}

function specialOperator(expected: unknown): [string, unknown] | undefined {
  if (!isDoc(expected)) return undefined;
  const keys = Object.keys(expected);
  return keys.length === 1 && keys[0]!.startsWith('$$') ? [keys[0]!, expected[keys[0]!]] : undefined;
}

/** Asserts that `actual` matches `expected`; throws MatchError naming the first difference. */
export function match(expected: unknown, actual: unknown, ents: EntityLookup, root = true, path = ''): void {
  // The driver builds some command fields (sort, index keys) as Maps: ordered documents.
  if (actual instanceof Map) actual = Object.fromEntries(actual);
  const op = specialOperator(expected);
  if (op) return special(op[0], op[1], actual, ents, root, path);
  if (isDoc(expected)) {
    if (!isDoc(actual)) fail(path, `expected a document ${show(expected)}, got ${show(actual)}`);
    for (const [k, v] of Object.entries(expected)) {
      const sub = specialOperator(v);
      const present = k in actual && actual[k] !== undefined;
      if (sub && sub[0] === '$$exists') {
        if (present !== sub[1])
          fail(`${path}.${k}`, sub[1] ? 'expected to exist' : `expected not to exist, got ${show(actual[k])}`);
        continue;
      }
      if (sub && sub[0] === '$$unsetOrMatches' && !present) continue;
      if (!present) fail(`${path}.${k}`, `missing (expected ${show(v)})`);
      match(v, actual[k], ents, false, `${path}.${k}`);
    }
    if (!root) {
      const extra = Object.keys(actual).filter((k) => !(k in expected) && actual[k] !== undefined);
      if (extra.length) fail(path, `unexpected fields ${extra.join(', ')} in ${show(actual)}`);
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) fail(path, `expected an array ${show(expected)}, got ${show(actual)}`);
    if (actual.length !== expected.length)
      fail(path, `expected ${expected.length} elements ${show(expected)}, got ${actual.length}: ${show(actual)}`);
    expected.forEach((v, i) => match(v, actual[i], ents, false, `${path}[${i}]`));
    return;
  }
  if (!scalarEqual(expected, actual)) fail(path, `expected ${show(expected)}, got ${show(actual)}`);
}

function special(op: string, arg: unknown, actual: unknown, ents: EntityLookup, root: boolean, path: string): void {
  switch (op) {
    case '$$exists':
      if ((actual !== undefined) !== arg) fail(path, `$$exists ${String(arg)}`);
      return;
    case '$$type': {
      const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
      if (actual === undefined || !types.some((t) => typeMatches(t, actual)))
        fail(path, `expected type ${types.join('|')}, got ${bsonType(actual)} ${show(actual)}`);
      return;
    }
    case '$$unsetOrMatches':
      if (actual !== undefined) match(arg, actual, ents, root, path);
      return;
    case '$$matchesEntity':
      return match(ents.entity(arg as string), actual, ents, root, path);
    case '$$sessionLsid':
      return match(ents.sessionLsid(arg as string), actual, ents, false, path);
    case '$$matchesHexBytes':
      if (typeof arg !== 'string' || !/^([0-9a-f]{2})*$/i.test(arg))
        throw new Error(`malformed $$matchesHexBytes ${String(arg)}`);
      if (
        !ArrayBuffer.isView(actual) ||
        Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).toString('hex') !== arg.toLowerCase()
      )
        fail(path, 'hex bytes differ');
      return;
    case '$$lte':
      if (!isNumeric(actual) || !(Number(actual) <= Number(arg)))
        fail(path, `expected <= ${show(arg)}, got ${show(actual)}`);
      return;
    case '$$matchAsDocument':
      if (typeof actual !== 'string') fail(path, `$$matchAsDocument needs a string, got ${show(actual)}`);
      return match(arg, EJSON.parse(actual, { relaxed: true }), ents, false, path);
    case '$$matchAsRoot':
      return match(arg, actual, ents, true, path);
    default:
      throw new Error(`unsupported special operator ${op}`);
  }
}
