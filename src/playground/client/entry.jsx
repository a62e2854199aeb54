// The playground in the browser: GraphiQL against this service's /graphql. Bundled by
// scripts/build-playground.mjs; the server hands over its settings in a JSON script element (no inline
// script, so the page's CSP can forbid them).
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { parse } from 'graphql';
import { GraphiQL } from 'graphiql';
import { DOC_EXPLORER_PLUGIN } from '@graphiql/react';
import { createRoot } from 'react-dom/client';
import 'graphiql/graphiql.css';
import './page.css';

const settings = JSON.parse(document.getElementById('playground-settings').textContent);

// The header editor starts with an empty Authorization value to fill in; an empty header is not sent.
// X-Gateway-Playground marks the playground's requests: outside production they may run documents nobody
// registered when the service runs only registered ones (src/http/trusted-documents.ts).
const withoutEmptyHeaders = (input, init = {}) => {
  const headers = new Headers(init.headers);
  for (const [name, value] of [...headers]) if (value.trim() === '') headers.delete(name);
  headers.set('X-Gateway-Playground', '1');
  return fetch(input, { ...init, headers });
};

const url = new URL(settings.endpoint, location.href);
// Subscriptions go over graphql-ws on the same path; the header editor's values become connection_init's payload.
const subscriptionUrl = new URL(url);
subscriptionUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
const toolkitFetcher = createGraphiQLFetcher({
  url: url.href,
  subscriptionUrl: subscriptionUrl.href,
  fetch: withoutEmptyHeaders,
});

// The toolkit picks WebSocket or HTTP from the editor's parsed document, which can lag behind the text just
// typed or pasted (a subscription would then go over HTTP and be refused): decide from the text being sent.
const parsed = (query) => {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
};
const fetcher = (params, options) =>
  toolkitFetcher(params, { ...options, documentAST: parsed(params.query) ?? options?.documentAST });

createRoot(document.getElementById('playground')).render(
  <GraphiQL
    fetcher={fetcher}
    defaultQuery={settings.defaultQuery}
    defaultHeaders={settings.defaultHeaders}
    isHeadersEditorEnabled
    defaultEditorToolsVisibility="headers"
    shouldPersistHeaders={false}
    showPersistHeadersSettings
    visiblePlugin={DOC_EXPLORER_PLUGIN}
  />,
);
