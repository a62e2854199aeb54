// Registered documents against the schema: each must parse and pass GraphQL's validation, as a request would.
// Run when a manifest is added (invalid documents refuse it) and by `npm run documents -- check`, which CI runs.
import { Kind, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { NewTrustedDocument } from '../../store/documents/trusted-documents.store.js';
import { ManifestError } from './manifest.js';

/** What is wrong with one document, one line per error (empty: it is valid). */
function problemsOf(schema: GraphQLSchema, body: string, maxTokens: number | undefined): string[] {
  let document: DocumentNode;
  try {
    document = parse(body, { maxTokens });
  } catch (err) {
    return [(err as Error).message];
  }
  if (!document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION)) return ['no operation'];
  return validate(schema, document, specifiedRules).map((e) => {
    const at = e.locations?.[0];
    return at ? `${e.message} (${at.line}:${at.column})` : e.message;
  });
}

const label = (doc: { sha256: string; alias?: string; body: string }): string => {
  const name = /^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(doc.body)?.[1];
  return `${name ?? 'anonymous'} (sha256:${doc.sha256.slice(0, 12)}…)`;
};

/** Every problem of every document, each line naming the document. */
export function checkDocuments(
  schema: GraphQLSchema,
  docs: ReadonlyArray<{ sha256: string; alias?: string; body: string }>,
  opts: { maxTokens?: number } = {},
): string[] {
  return docs.flatMap((doc) => problemsOf(schema, doc.body, opts.maxTokens).map((p) => `${label(doc)}: ${p}`));
}

/** The manifest's documents with their operation names, or a DOCUMENTS_INVALID error listing every problem. */
export function validManifest(
  schema: GraphQLSchema,
  docs: NewTrustedDocument[],
  opts: { maxTokens?: number } = {},
): NewTrustedDocument[] {
  const problems = checkDocuments(schema, docs, opts);
  if (problems.length)
    throw new ManifestError('DOCUMENTS_INVALID', 'Documents that do not validate against the schema', problems);
  return docs.map((doc) => {
    const operations = parse(doc.body).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    return { ...doc, operationName: operations.length === 1 ? (operations[0]!.name?.value ?? null) : null };
  });
}
