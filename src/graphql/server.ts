// Apollo Server 5 over the type-graphql schema: masking, request ids on errors, 503 when the store is down.
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { GraphQLError, type FormattedExecutionResult, type GraphQLSchema } from 'graphql';
import type { Config } from '../config.js';
import type { Context } from '../context.js';
import { AppError } from '../errors.js';
import { isStoreOutage } from '../store/errors.js';
import { unwrapResolverError } from '@apollo/server/errors';
import { formatGraphQLError, isClientErrorCode, isClientGraphQLError } from './errors.js';
import { armorProtection, costLimitPlugin } from './limits.js';
import { cacheControlPlugins } from './cache-control.js';
import { selectedFields, shownTypes } from './selection.js';
import { operationLabel } from '../metrics/metrics.js';
import { executeQuery } from './execute.js';
import { releaseAnswer } from './released-answers.js';

/** Attaches the request id to every error and turns a store outage into 503 + Retry-After. */
const requestIdPlugin: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    let storeDown = false;
    return {
      async didResolveOperation({ operationName, contextValue, schema, document, operation }) {
        contextValue.http.operationName = operationLabel(operationName);
        // Subscriptions are served over WebSocket (graphql-ws); over plain HTTP one would run as a query.
        if (operation?.operation === 'subscription') {
          throw new GraphQLError(
            'Subscriptions are served over WebSocket (graphql-ws protocol) on /graphql, not over HTTP',
            {
              nodes: [operation],
              extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
            },
          );
        }
        contextValue.operation.fields = selectedFields(schema, document, operationName);
        contextValue.operation.types = shownTypes(schema, document, operationName);
      },
      async didEncounterErrors({ errors, contextValue }) {
        storeDown ||= errors.some((e) => isStoreOutage(unwrapResolverError(e)));
        // What the client sees masked is logged whole here, under the request id it was given.
        // A client's own mistakes are logged below error level: anyone can send them, so they must not flood it.
        for (const error of errors) {
          const original = unwrapResolverError(error);
          if (original instanceof AppError || isStoreOutage(original)) continue;
          if (isClientGraphQLError(error)) {
            contextValue.log.debug({ code: error.extensions?.code, message: error.message }, 'GraphQL request refused');
          } else {
            contextValue.log.error({ err: original, path: error.path }, 'GraphQL resolver failed');
          }
        }
      },
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        for (const error of result.errors ?? []) {
          (error.extensions as Record<string, unknown>).requestId = contextValue.requestId;
        }
        // GraphQL over HTTP: a request error (parse, validation, variable coercion, an unknown operation) leaves
        // no `data` entry and is a 4xx; once execution starts the answer has `data` (null or partial) and is a
        // 2xx, whatever a resolver refused, so a client reads what there is beside the errors.
        const executed = 'data' in result;
        // Any field that needed the store failed: a partial answer would look like missing data, so 503.
        if (storeDown) {
          response.http.status = 503;
          response.http.headers.set('retry-after', '2');
        } else if (
          !executed &&
          response.http.status === 500 &&
          result.errors?.every((e) => isClientErrorCode(e.extensions?.code))
        ) {
          // A rejection raised by a plugin (e.g. armor's token limit parsing the query) is still the client's mistake.
          response.http.status = 400;
        } else if (
          !executed &&
          result.errors?.length &&
          result.errors.every((e) => e.extensions?.code === 'BAD_USER_INPUT')
        ) {
          // Variables our executor could not coerce (it coerces them itself, src/graphql/execute.ts): a request error.
          response.http.status = 400;
        }
      },
    };
  },
};

/**
 * The schema with our executor (src/graphql/execute.ts) in place of graphql-js's `execute`. Apollo Server takes a
 * custom executor only through its gateway interface: a gateway whose schema never changes and whose executor runs
 * the operation in this process. Everything before execution (parsing, validation, the document store, plugins)
 * and after it (error formatting, status codes, headers) stays Apollo's.
 */
function localExecution(schema: GraphQLSchema): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return {
        executor: async (request) =>
          executeQuery({
            schema,
            document: request.document,
            contextValue: request.context,
            variableValues: request.request.variables,
            operationName: request.request.operationName,
          }),
      };
    },
    async stop() {},
  };
}

/**
 * The answer's bytes, and then its data let go: this is the last use Apollo makes of the result (plugins'
 * `willSendResponse` ran before it, the HTTP integration only sends the string).
 *
 * Why let go: Apollo hands the request to a gateway executor in an object with `status` accessors
 * (`makeGatewayGraphQLRequestContext`), whose getter and setter capture the request context, so they reach the
 * response and its result. V8 allocates the accessor pair of such an object in the old generation, so it is
 * dead after the request but stays until the next full collection (seconds), and every young-generation
 * collection before then takes it as a root: each finished answer's objects (result objects, lists, strings of
 * the documents read) were copied by one scavenge and promoted by the next (0.7 MB per scavenge at one
 * connection; docs/decisions.md, "What a finished request leaves behind"). Emptying the root of the data (a few keys) leaves that pair
 * reaching nothing large. Exported for the test that checks it.
 */
export function answerBytes(result: FormattedExecutionResult): string {
  const text = JSON.stringify(result);
  const data = result.data as Record<string, unknown> | null | undefined;
  if (data) releaseAnswer(data);
  // `delete` (not assignment): a `__proto__` alias is an own property here, which assignment would not reach.
  if (data) for (const key of Object.keys(data)) delete data[key];
  return text;
}

export function createApolloServer(
  schema: GraphQLSchema,
  config: Config,
  plugins: ApolloServerPlugin<Context>[] = [],
): ApolloServer<Context> {
  const armor = armorProtection(config.graphql);
  return new ApolloServer<Context>({
    gateway: localExecution(schema),
    validationRules: armor.validationRules,
    parseOptions: { maxTokens: config.graphql.maxTokens },
    allowBatchedHttpRequests: false,
    introspection: config.introspection,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM: Apollo stopping itself on the signal would fail the requests we are draining.
    stopOnTerminationSignals: false,
    // CSRF prevention guards credentials a browser sends by itself (cookies, Basic auth). /graphql honours none:
    // only a bearer token a script sets, and any other credential is refused (src/oauth/bearer.ts). A cross-site
    // GET can only read public answers it cannot see (CORS), and mutations never run over GET; POST bodies must
    // be JSON (415 otherwise, src/http/security.ts), which no form can send. So clients' plain GETs (urql's
    // default, Apollo Client's useGETForQueries) are answered and cacheable without a preflight header.
    csrfPrevention: false,
    formatError: formatGraphQLError,
    // Apollo's default adds a newline to every answer, which copies the whole answer string once more.
    stringifyResult: answerBytes,
    plugins: [
      requestIdPlugin,
      ...cacheControlPlugins(config.cache.maxAge),
      ...(armor.plugins as ApolloServerPlugin<Context>[]),
      costLimitPlugin(config.graphql.maxCost),
      ...plugins,
    ],
  });
}
