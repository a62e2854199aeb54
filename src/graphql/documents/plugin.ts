// Runs the document a request named by id: the HTTP layer (src/http/trusted-documents.ts) found it in the
// registry and left it on the context; Apollo reads `query` only after its plugins' `requestDidStart`. An answer
// that only some callers may compute is sent `no-store` (Apollo's cache-control plugin narrows, never widens, a
// header set here), so the response cache, which answers before the allowlist is consulted, never holds it.
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../../context.js';

export const trustedDocumentPlugin: ApolloServerPlugin<Context> = {
  async requestDidStart({ request, response, contextValue }) {
    const decided = contextValue.trustedDocument;
    if (!decided) return;
    if (decided.text !== undefined && request.query === undefined) request.query = decided.text;
    if (decided.notShared) response.http.headers.set('cache-control', 'no-store');
  },
};
