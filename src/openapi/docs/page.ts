// The /docs page: Swagger UI pointed at /openapi.json. No inline script (the initializer is a file
// served beside the bundle), so the page's own CSP can keep `script-src 'self'`; Swagger UI sets inline
// styles, hence `'unsafe-inline'` for styles only.
import { ASSETS_PREFIX, swaggerUiVersion } from './assets.js';

export const INIT_SCRIPT = 'docs-init.js';

/** Scripts and styles from this origin; requests to this origin and to the configured public URL. */
export function docsCsp(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${origin}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const asset = (name: string): string => `${ASSETS_PREFIX}${name}?v=${swaggerUiVersion}`;

export function renderDocsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>REST API reference</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<div id="swagger-ui"><noscript>The API reference needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset(INIT_SCRIPT)}"></script>
</body>
</html>
`;
}

/**
 * The initializer. `validatorUrl: null` keeps Swagger UI from sending the document to an outside
 * validator; the OAuth redirect page is the bundled one.
 */
export function renderInitScript(documentPath: string): string {
  return `// Starts Swagger UI on ${documentPath} (served by the gateway; see src/openapi/docs/page.ts).
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentPath)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  oauth2RedirectUrl: window.location.origin + ${JSON.stringify(`${ASSETS_PREFIX}oauth2-redirect.html`)},
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;
}
