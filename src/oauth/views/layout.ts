// The server-rendered pages' frame: escaping and one small stylesheet. No scripts, no external assets.
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f4f5;margin:0;padding:48px 16px}
main{max-width:380px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.3rem;margin:0 0 16px}label{display:block;margin:12px 0 4px;font-size:.9rem}
input{width:100%;box-sizing:border-box;padding:8px;font-size:1rem;border:1px solid #bbb;border-radius:4px}
button{margin-top:16px;padding:10px 14px;font-size:1rem;border:0;border-radius:4px;background:#2563eb;color:#fff;cursor:pointer}
button.secondary{background:#e4e4e7;color:#111}.error{color:#b91c1c;margin:8px 0}ul{padding-left:20px}`;

/**
 * The pages' Content-Security-Policy: nothing but the inline stylesheet, never framed. No form-action:
 * browsers apply it to the redirects after a form post, and those end at the client's redirect URI.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/** A complete HTML document; `body` must already be escaped. */
export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}
