// The playground's HTML page and its Content-Security-Policy: scripts and styles from this origin only
// (the bundle), fonts and icons as data URLs, requests to this origin only, no framing.
import { ASSET_PREFIX, type PlaygroundManifest } from './assets.js';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageSettings {
  endpoint: string;
  defaultQuery: string;
  defaultHeaders: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Inside <script type="application/json"> only "</script" and "<!--" could end the block early.
const jsonForScript = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export function renderPage(manifest: PlaygroundManifest, settings: PageSettings): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PREFIX}${escapeHtml(manifest.css)}">
<script id="playground-settings" type="application/json">${jsonForScript(settings)}</script>
<script src="${ASSET_PREFIX}${escapeHtml(manifest.js)}" defer></script>
</head>
<body>
<div id="playground">Loading the playground…</div>
</body>
</html>
`;
}

export function renderNotBuilt(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphQL playground</title></head>
<body><h1>The playground has not been built</h1>
<p>Run <code>npm run build</code> (it bundles the playground into <code>dist/playground</code>), then reload.
API requests to <code>/graphql</code> work regardless.</p></body></html>
`;
}
