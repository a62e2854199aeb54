// GET /openapi.json (the document, with an ETag and a short public cache) and the Swagger UI viewer at
// /docs with its files under /docs/assets/ (unless API_DOCS=false). Other methods on these paths are a 405 problem.
import { Router } from '@koa/router';
import type Koa from 'koa';
import type { Config } from '../config.js';
import { ifNoneMatchMatches, strongEtag } from '../cache/cacheable.js';
import { keepAnswer } from '../cache/kept-answer.js';
import { ASSETS_PREFIX, sendAsset } from './docs/assets.js';
import { docsCsp, INIT_SCRIPT, renderDocsPage, renderInitScript } from './docs/page.js';
import { openApiJson } from './document.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

export function openApiRoutes(config: Pick<Config, 'publicUrl' | 'oauth' | 'apiDocs'>): Koa.Middleware {
  const router = new Router();
  let document: { json: Buffer; etag: string } | undefined;

  router.get(OPENAPI_PATH, (ctx) => {
    // Built on first request, not at start-up: most processes never serve it.
    if (!document) {
      const json = openApiJson(config);
      const etag = strongEtag(json);
      // Compressed once per coding and kept, as the document never changes while the process runs.
      document = { json: keepAnswer(Buffer.from(json, 'utf8'), etag).body, etag };
    }
    ctx.set('ETag', document.etag);
    ctx.set('Cache-Control', 'public, max-age=300');
    if (ifNoneMatchMatches(ctx.get('If-None-Match'), document.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = document.json;
  });

  if (config.apiDocs) docsViewer(router, config);

  const routes = router.routes() as unknown as Koa.Middleware;
  const methods = router.allowedMethods({ throw: true }) as unknown as Koa.Middleware;
  return (ctx, next) => routes(ctx, () => methods(ctx, next));
}

function docsViewer(router: Router, config: Pick<Config, 'publicUrl'>): void {
  const page = renderDocsPage();
  const csp = docsCsp(config.publicUrl);
  const own = { [INIT_SCRIPT]: { type: 'text/javascript; charset=utf-8', body: renderInitScript(OPENAPI_PATH) } };
  router.get([DOCS_PATH, `${DOCS_PATH}/`], (ctx) => {
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  router.get(`${ASSETS_PREFIX}:file`, async (ctx, next) => {
    // The bundled OAuth redirect page runs its script from this origin as well.
    if (ctx.params.file!.endsWith('.html')) ctx.set('Content-Security-Policy', csp);
    if (!(await sendAsset(ctx as unknown as Koa.Context, ctx.params.file!, own))) return next();
  });
}
