// The unified format's expectedError assertions against an error the driver raised.
import { MongoBulkWriteError, MongoClientBulkWriteError, MongoError, MongoServerError } from 'mongodb';
import { bulkResult, clientBulkResult } from './operations.js';
import { match, MatchError, type Doc, type EntityLookup } from './match.js';

function serverSide(err: unknown): boolean {
  return (
    err instanceof MongoServerError || err instanceof MongoClientBulkWriteError || err instanceof MongoBulkWriteError
  );
}

/** The server's reply behind the error, where the driver keeps one. */
function response(err: unknown): Doc | undefined {
  if (err instanceof MongoClientBulkWriteError && err.cause instanceof MongoServerError) return response(err.cause);
  if (err instanceof MongoServerError) return (err.errorResponse as Doc | undefined) ?? (err as unknown as Doc);
  return undefined;
}

function code(err: unknown): unknown {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  return e.code ?? e.cause?.code;
}

function codeName(err: unknown): unknown {
  const e = err as { codeName?: unknown; cause?: { codeName?: unknown } };
  return e.codeName ?? e.cause?.codeName ?? response(err)?.codeName;
}

function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) parts.push(e.message);
  if (err instanceof MongoBulkWriteError) for (const w of [err.writeErrors].flat()) parts.push(String(w.errmsg));
  if (err instanceof MongoClientBulkWriteError) for (const w of err.writeErrors.values()) parts.push(w.message);
  return parts.join('\n').toLowerCase();
}

function check(ok: boolean, msg: string): void {
  if (!ok) throw new MatchError(msg);
}

export function checkError(expected: Doc, err: unknown, ents: EntityLookup): void {
  const desc = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (expected.isClientError !== undefined)
    check(
      expected.isClientError === !serverSide(err),
      `isClientError ${String(expected.isClientError)} but got ${desc}`,
    );
  if (expected.isTimeoutError === true) check(false, 'timeouts are not tested');
  if (typeof expected.errorContains === 'string')
    check(
      messages(err).includes(expected.errorContains.toLowerCase()),
      `error should contain "${expected.errorContains}", got ${desc}`,
    );
  if (expected.errorCode !== undefined)
    check(
      code(err) === expected.errorCode,
      `error code should be ${String(expected.errorCode)}, got ${String(code(err))} (${desc})`,
    );
  if (expected.errorCodeName !== undefined)
    check(
      String(codeName(err)).toLowerCase() === String(expected.errorCodeName).toLowerCase(),
      `codeName should be ${String(expected.errorCodeName)}, got ${String(codeName(err))} (${desc})`,
    );
  for (const l of (expected.errorLabelsContain as string[] | undefined) ?? [])
    check(err instanceof MongoError && err.hasErrorLabel(l), `error should have label ${l}`);
  for (const l of (expected.errorLabelsOmit as string[] | undefined) ?? [])
    check(!(err instanceof MongoError && err.hasErrorLabel(l)), `error should not have label ${l}`);
  if (expected.errorResponse !== undefined) {
    const r = response(err);
    check(r !== undefined, `expected a server response, got ${desc}`);
    match(expected.errorResponse, r, ents, true);
  }
  if (expected.writeErrors !== undefined) {
    check(err instanceof MongoClientBulkWriteError, `expected a client bulk write error, got ${desc}`);
    const actual = (err as MongoClientBulkWriteError).writeErrors;
    const want = expected.writeErrors as Doc;
    check(
      actual.size === Object.keys(want).length,
      `expected ${Object.keys(want).length} write errors, got ${actual.size}`,
    );
    for (const [i, w] of Object.entries(want)) {
      const a = actual.get(Number(i));
      check(a !== undefined, `no write error at index ${i}`);
      match(
        w,
        { code: a!.code, message: a!.message, details: (a as { errInfo?: unknown }).errInfo },
        ents,
        true,
        `writeErrors.${i}`,
      );
    }
  }
  if (expected.writeConcernErrors !== undefined) {
    check(err instanceof MongoClientBulkWriteError, `expected a client bulk write error, got ${desc}`);
    match(
      expected.writeConcernErrors,
      (err as MongoClientBulkWriteError).writeConcernErrors,
      ents,
      false,
      'writeConcernErrors',
    );
  }
  if (expected.expectResult !== undefined) {
    const partial =
      err instanceof MongoClientBulkWriteError
        ? clientBulkResult(err.partialResult)
        : err instanceof MongoBulkWriteError
          ? bulkResult(err.result)
          : undefined;
    match(expected.expectResult, partial, ents, true, 'expectResult');
  }
}
