// Document validation (a collection's `validator`, `validationLevel`, `validationAction`), checked by every
// write path before a document is stored, as mongod does: a document the validator refuses is error 121
// DocumentValidationFailure with `errInfo: { failingDocumentId, details }`, unless the command says
// `bypassDocumentValidation: true`, the level is `off`, or (level `moderate`) the stored document was
// already invalid. Action `warn` stores the document and logs. Query-operator validators only:
// `$jsonSchema` is refused when the validator is set (MongoDB's BSON flavour of JSON Schema is not built).
import type { Document } from 'bson';
import { Query } from '../query/mingo.js';
import { mingoOptions } from '../query/options.js';
import { numericTypesMatch, splitNumericTypes } from '../query/types.js';
import { encode } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import type { CommandContext } from './context.js';
import { CommandError } from '../errors.js';

const LEVELS = ['off', 'strict', 'moderate'];
const ACTIONS = ['error', 'warn', 'errorAndLog'];

/** Checks the validation options of create/collMod; returns the options to store. */
export function validationOptions(body: Document): Document {
  const out: Document = {};
  if (body.validator !== undefined) {
    const v: unknown = body.validator;
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw new CommandError('TypeMismatch', "BSON field 'validator' is the wrong type, expected type 'object'");
    if (JSON.stringify(v).includes('"$jsonSchema"'))
      throw new CommandError('CommandNotSupported', '$jsonSchema validators are not supported by the embedded engine');
    for (const bad of ['$where', '$near', '$nearSphere', '$text']) {
      if (JSON.stringify(v).includes(`"${bad}"`))
        throw new CommandError('BadValue', `${bad} is not allowed inside of a document validator`);
    }
    try {
      new Query(v as Document, mingoOptions());
    } catch (e) {
      throw new CommandError(
        'BadValue',
        `Parsing of collection validator failed :: caused by :: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    out.validator = v;
  }
  if (body.validationLevel !== undefined) {
    if (!LEVELS.includes(body.validationLevel as string))
      throw new CommandError(
        'BadValue',
        `Enumeration value '${String(body.validationLevel)}' for field 'validationLevel' is not a valid value.`,
      );
    out.validationLevel = body.validationLevel;
  }
  if (body.validationAction !== undefined) {
    if (!ACTIONS.includes(body.validationAction as string))
      throw new CommandError(
        'BadValue',
        `Enumeration value '${String(body.validationAction)}' for field 'validationAction' is not a valid value.`,
      );
    out.validationAction = body.validationAction;
  }
  return out;
}

function valid(validator: Document, doc: Document, bytes: Buffer | undefined): boolean {
  const { rest, checks } = splitNumericTypes(validator);
  if (checks.length && !numericTypesMatch(bytes ?? encode(doc), checks)) return false;
  return new Query(rest, mingoOptions()).test(doc);
}

/** MongoDB's `details` of a failed validation, one entry per top-level clause the document does not satisfy. */
function details(validator: Document, doc: Document, bytes: Buffer | undefined): Document {
  const clauses = Object.entries(validator).map(([k, v]) => ({ [k]: v }) as Document);
  const failed = clauses.flatMap((c, index) =>
    valid(c, doc, bytes) ? [] : [{ index, details: clauseDetails(c, doc) }],
  );
  return { operatorName: '$and', clausesNotSatisfied: failed };
}

function clauseDetails(clause: Document, doc: Document): Document {
  const [field, cond] = Object.entries(clause)[0]!;
  if (field.startsWith('$')) return { operatorName: field, specifiedAs: clause, reason: 'expression did not match' };
  const value = field
    .split('.')
    .reduce<unknown>((d, p) => (d && typeof d === 'object' ? (d as Document)[p] : undefined), doc);
  const ops =
    cond && typeof cond === 'object' && !Array.isArray(cond)
      ? Object.keys(cond as Document).filter((k) => k.startsWith('$'))
      : [];
  const operatorName = ops[0] ?? '$eq';
  const out: Document = { operatorName, specifiedAs: clause };
  if (value === undefined) out.reason = 'field was missing';
  else {
    out.reason = operatorName === '$type' ? 'type did not match' : 'comparison failed';
    out.consideredValue = value;
  }
  return out;
}

/**
 * Refuses (121) a document the collection's validator does not accept. `before`: the stored document an
 * update replaces (level `moderate` only checks documents that were valid). `bytes`: the document as it
 * will be stored, when the caller has it (numeric `$type` conditions read the stored types).
 */
export function checkValidation(
  ctx: CommandContext,
  coll: Collection | undefined,
  doc: Document,
  opts: { before?: Document; bytes?: Buffer } = {},
): void {
  const validator = coll?.options.validator as Document | undefined;
  if (!validator || Object.keys(validator).length === 0) return;
  if (ctx.body.bypassDocumentValidation === true) return;
  const level = (coll!.options.validationLevel as string | undefined) ?? 'strict';
  if (level === 'off') return;
  if (level === 'moderate' && opts.before && !valid(validator, opts.before, undefined)) return;
  if (valid(validator, doc, opts.bytes)) return;
  const errInfo = { failingDocumentId: doc._id, details: details(validator, doc, opts.bytes) };
  if (coll!.options.validationAction === 'warn') {
    ctx.state.log('Document would fail validation', { ns: coll!.ns, ...errInfo });
    return;
  }
  throw new CommandError('DocumentValidationFailure', 'Document failed validation', { errInfo });
}
