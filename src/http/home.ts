// GET / : where to go from the service's root — the playground, the REST API's docs and OpenAPI document, the
// OAuth discovery document and the probes. A small HTML page for browsers, the same links as JSON for clients
// that ask for it. Only what this configuration serves is listed.
import type Koa from 'koa';
import type { Config } from '../config.js';
import { serviceName, serviceVersion } from '../version.js';

interface Link {
  rel: string;
  href: string;
  title: string;
}

const PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function homeLinks(config: Pick<Config, 'playground' | 'apiDocs' | 'metrics'>, oauthMount: string): Link[] {
  return [
    {
      rel: 'graphql',
      href: '/graphql',
      title: config.playground
        ? 'GraphQL endpoint and playground (open it in a browser)'
        : 'GraphQL endpoint (POST, GET; subscriptions over graphql-ws)',
    },
    ...(config.apiDocs ? [{ rel: 'docs', href: '/docs', title: 'REST API documentation' }] : []),
    { rel: 'openapi', href: '/openapi.json', title: 'OpenAPI 3.1 document of the REST API' },
    {
      rel: 'oauth',
      href: `${oauthMount}/.well-known/openid-configuration`,
      title: 'OAuth 2.0 / OpenID Connect discovery',
    },
    { rel: 'health', href: '/healthz', title: 'Liveness' },
    { rel: 'ready', href: '/readyz', title: 'Readiness (the store answers)' },
    ...(config.metrics ? [{ rel: 'metrics', href: '/metrics', title: 'Prometheus metrics' }] : []),
  ];
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function renderPage(links: Link[]): string {
  const items = links
    .map((l) => `    <li><a href="${escape(l.href)}">${escape(l.href)}</a>: ${escape(l.title)}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escape(serviceName)}</title>
</head>
<body>
  <h1>${escape(serviceName)} ${escape(serviceVersion)}</h1>
  <ul>
${items}
  </ul>
</body>
</html>
`;
}

export function home(config: Pick<Config, 'playground' | 'apiDocs' | 'metrics'>, oauthMount: string): Koa.Middleware {
  const links = homeLinks(config, oauthMount);
  const page = renderPage(links);
  const json = JSON.stringify({ name: serviceName, version: serviceVersion, links });
  return async (ctx, next) => {
    if (ctx.path !== '/' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.vary('Accept');
    ctx.set('Cache-Control', 'no-cache');
    if (ctx.accepts('text/html', 'application/json') === 'application/json') {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = json;
      return;
    }
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  };
}
