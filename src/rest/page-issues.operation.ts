// Runs the named GraphQL operation PageIssues (src/rest/documents/page-issues.graphql) against the
// gateway schema with the request's context, so REST and GraphQL share one implementation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Context } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { executeQuery } from '../graphql/execute.js';
import type { PageIssuesQuery } from '../graphql/generated.js';
import { selectedFields, shownTypes } from '../graphql/selection.js';
import { connections } from '../operations/connections.js';
import { projectRoot } from '../version.js';

/** tsc does not copy .graphql files into dist, so the document is read from the project root. */
const DOCUMENT_PATH = join(projectRoot, 'src/rest/documents/page-issues.graphql');

const validated = new WeakMap<GraphQLSchema, DocumentNode>();

/** Parsed and validated once per schema: a document that no longer matches the schema fails loudly at first use. */
function documentFor(schema: GraphQLSchema): DocumentNode {
  let document = validated.get(schema);
  if (!document) {
    document = parse(readFileSync(DOCUMENT_PATH, 'utf8'));
    const errors = validate(schema, document);
    if (errors.length)
      throw new Error(`page-issues.graphql does not match the schema: ${errors.map((e) => e.message).join('; ')}`);
    validated.set(schema, document);
  }
  return document;
}

type Page = NonNullable<PageIssuesQuery['page']>;
/** The page with its issues: the operation's errors are thrown, so the connection is there. */
export type PageIssuesPage = Page & { issues: NonNullable<Page['issues']> };

/** The page and one page of its issues; PAGE_NOT_FOUND / PAGE_NOT_ENABLED as AppErrors. */
export async function runPageIssues(
  ctx: Context,
  schema: GraphQLSchema,
  args: { id: string; page: number; limit: number },
): Promise<PageIssuesPage> {
  const document = documentFor(schema);
  ctx.operation.fields = selectedFields(schema, document, 'PageIssues');
  ctx.operation.types = shownTypes(schema, document, 'PageIssues');
  const result = await executeQuery({
    schema,
    document,
    operationName: 'PageIssues',
    contextValue: ctx,
    variableValues: {
      id: args.id,
      first: args.limit,
      after: ctx.cursors.beforeOffset({ kind: connections.pageIssues, parent: args.id }, (args.page - 1) * args.limit),
    },
  });
  if (result.errors?.length) {
    const original = result.errors.map((e) => e.originalError).find((e) => e instanceof AppError);
    // An application error (403, 400) is the answer; anything else is a bug or an outage, thrown as it is.
    throw original ?? result.errors[0]!.originalError ?? result.errors[0]!;
  }
  const page = (result.data as { page: PageIssuesPage | null } | null | undefined)?.page;
  if (!page) throw notFound('PAGE_NOT_FOUND', 'Page not found', `There is no page ${args.id}`);
  return page;
}
