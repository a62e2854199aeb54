// Checks live responses against the OpenAPI document: the response declared for the request's path
// template, method and status; its content type; the body against the declared schema (JSON Schema
// 2020-12, ajv); required headers present and matching theirs. Each body is validated twice: against
// the document as written, and against a closed copy in which every object without an explicit
// `additionalProperties` allows no other fields, so a field the service sends but the document does
// not mention fails too (the document itself stays open, as additive changes are not breaking).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { OpenApiDocument } from '../../src/openapi/document.js';

// A CommonJS default export: TypeScript sees the module object, Node's ESM loader the function itself.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as typeof addFormatsModule.default;

type Json = any;
const DOC_ID = 'urn:gateway:openapi';

/** A live answer, read once. */
export interface LiveResponse {
  status: number;
  headers: Headers;
  text: string;
}

export async function read(res: Response): Promise<LiveResponse> {
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** OpenAPI schemas with `#/components/schemas/X` refs, as schemas ajv can resolve against the document. */
function rebase(value: Json): Json {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`));
}

/** Every object schema that lists properties and says nothing about others allows no others. */
function closed(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === 'examples' || k === 'example' || k === 'const' || k === 'enum' ? v : closed(v),
    ]),
  );
  if (
    out.properties &&
    typeof out.properties === 'object' &&
    !('additionalProperties' in out) &&
    !('unevaluatedProperties' in out)
  ) {
    out.additionalProperties = false;
  }
  return out;
}

function ajvFor(schemas: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // OpenAPI's own keywords beside JSON Schema's: annotations, no validation.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addSchema({ $id: DOC_ID, $defs: schemas });
  return ajv;
}

const fmt = (where: string, errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map(
    (e) => `${where}${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );

export class Conformance {
  private readonly declared;
  private readonly strict;
  private readonly compiled = new Map<string, { declared: ValidateFunction; strict: ValidateFunction }>();
  /** `METHOD path status` of every response checked, for the coverage test. */
  readonly exercised = new Set<string>();

  constructor(private readonly doc: OpenApiDocument) {
    const schemas = rebase(doc.components?.schemas ?? {});
    this.declared = ajvFor(schemas);
    this.strict = ajvFor(closed(schemas));
  }

  /** `METHOD path status` for every response the document declares. */
  documentedResponses(): string[] {
    return Object.entries<Json>(this.doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries<Json>(item).flatMap(([method, op]) =>
        Object.keys(op.responses ?? {}).map((status) => `${method.toUpperCase()} ${path} ${status}`),
      ),
    );
  }

  private validators(key: string, schema: Json) {
    let pair = this.compiled.get(key);
    if (!pair) {
      pair = { declared: this.declared.compile(rebase(schema)), strict: this.strict.compile(closed(rebase(schema))) };
      this.compiled.set(key, pair);
    }
    return pair;
  }

  private header(ref: Json): Json {
    const name = typeof ref.$ref === 'string' ? ref.$ref.replace('#/components/headers/', '') : undefined;
    return name ? (this.doc.components as Json).headers[name] : ref;
  }

  /** Everything wrong with `res` as the answer of `method pathTemplate`; empty when it conforms. */
  check(method: string, pathTemplate: string, res: LiveResponse): string[] {
    const op = (this.doc.paths as Json)?.[pathTemplate]?.[method.toLowerCase()];
    if (!op) return [`${method} ${pathTemplate} is not in the document`];
    const response = op.responses[String(res.status)] ?? op.responses.default;
    const key = `${method.toUpperCase()} ${pathTemplate} ${res.status}`;
    if (!response)
      return [`${key}: status ${res.status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    this.exercised.add(key);
    const problems: string[] = [];

    for (const [name, ref] of Object.entries<Json>(response.headers ?? {})) {
      const header = this.header(ref);
      const value = res.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${key}: required header ${name} is missing`);
        continue;
      }
      const valid = this.validators(`header ${name} ${JSON.stringify(header.schema)}`, header.schema);
      if (!valid.declared(value)) problems.push(...fmt(`${key} header ${name}: `, valid.declared.errors));
    }

    const contentType = res.headers.get('content-type')?.split(';')[0]!.trim() ?? null;
    if (!response.content) {
      if (res.text !== '') problems.push(`${key}: documented without a body, but one was sent (${contentType})`);
      return problems;
    }
    const media = contentType ? response.content[contentType] : undefined;
    if (!media)
      return [
        ...problems,
        `${key}: content type ${contentType} is not documented (documented: ${Object.keys(response.content).join(', ')})`,
      ];
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      return [...problems, `${key}: the body is not JSON: ${res.text.slice(0, 200)}`];
    }
    const valid = this.validators(`${key} ${contentType}`, media.schema);
    if (!valid.declared(body)) problems.push(...fmt(`${key} body`, valid.declared.errors));
    else if (!valid.strict(body)) problems.push(...fmt(`${key} body (undocumented field)`, valid.strict.errors));
    return problems;
  }
}
