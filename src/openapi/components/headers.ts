// Response headers the REST shims and the OAuth endpoints send (docs/api.md), as reusable
// components referenced from each response that carries them.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

type HeaderObject = Extract<Parameters<OpenAPIRegistry['registerComponent']>[2], { schema?: unknown }>;

const HEADERS = {
  RequestId: {
    description:
      'Identifies this request in the logs; echoed from the request when it sent a sane `X-Request-Id` (1-128 of `[A-Za-z0-9._:-]`)',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  WwwAuthenticate: {
    description:
      'RFC 6750 challenge, e.g. `Bearer realm="api", error="invalid_token", error_description="..."`; with `error="insufficient_scope", scope="cart"` on a 403 for a missing scope',
    required: true,
    schema: { type: 'string', pattern: '^Bearer ' },
  },
  BasicChallenge: {
    description:
      'RFC 6749 §5.2: when the client authenticated with HTTP Basic, the challenge for it (`Basic realm="...", error="invalid_client"`)',
    schema: { type: 'string', pattern: '^Basic ' },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  ETag: {
    description: 'Strong validator of the body; send it back in `If-None-Match` for a 304',
    required: true,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  CacheControl: {
    description: '`public, max-age=60` for anonymous callers, `private, max-age=60` when a token was presented',
    required: true,
    schema: { type: 'string', pattern: '^(public|private), max-age=[0-9]+$' },
  },
  NoStore: {
    description: 'Never cached',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  PageLinks: {
    description:
      'RFC 8288 links to the `next` and `prev` pages, where they exist (same path and query, `page` changed)',
    schema: {
      type: 'string',
      examples: [
        '</cms/page/home/issues?limit=20&page=3>; rel="next", </cms/page/home/issues?limit=20&page=1>; rel="prev"',
      ],
    },
  },
  TotalCount: {
    description: 'How many items the filters match over all pages',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['150'] },
  },
  Deprecation: {
    description: 'RFC 9745: this path is deprecated',
    required: true,
    schema: { type: 'string', const: 'true' },
  },
} satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADERS | 'SuccessorLink';

/** Registers every header; `successorPath` is the path the deprecated coupon alias points to. */
export function registerHeaders(registry: OpenAPIRegistry, opts: { successorPath: string }): void {
  for (const [name, header] of Object.entries(HEADERS))
    registry.registerComponent('headers', name, header as HeaderObject);
  registry.registerComponent('headers', 'SuccessorLink', {
    description: 'RFC 8288 link to the path that replaces this one',
    required: true,
    schema: { type: 'string', const: `<${opts.successorPath}>; rel="successor-version"` },
  });
}

/** `{ 'X-Request-Id': {$ref}, ... }` for a response: X-Request-Id always, plus the named headers. */
export function headers(named: Partial<Record<string, HeaderName>> = {}): Record<string, { $ref: string }> {
  const all: Record<string, HeaderName> = { 'X-Request-Id': 'RequestId', ...(named as Record<string, HeaderName>) };
  return Object.fromEntries(
    Object.entries(all).map(([header, name]) => [header, { $ref: `#/components/headers/${name}` }]),
  );
}
