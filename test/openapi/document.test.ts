// The OpenAPI document is valid OpenAPI 3.1 (checked by a maintained parser), covers every JSON route of
// the REST route table and the two OAuth endpoints, and carries what a client needs: servers, version,
// operation ids, tags, security schemes, the deprecated alias.
import { validate, compileErrors } from '@readme/openapi-parser';
import { loadConfig } from '../../src/config.js';
import { openApiJson, type OpenApiDocument } from '../../src/openapi/document.js';
import { toOpenApiPath } from '../../src/openapi/paths/params.js';
import type { AppDeps } from '../../src/app.js';
import { restRouter } from '../../src/rest/routes.js';
import { serviceVersion } from '../../src/version.js';

const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://api.example.com' });
let doc: OpenApiDocument;
beforeAll(() => {
  doc = JSON.parse(openApiJson(config)) as OpenApiDocument;
});

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const operations = (d: OpenApiDocument) =>
  Object.entries(d.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((method) => ({
      path,
      method,
      op: (item as Record<string, any>)[method],
    })),
  );

test('@readme/openapi-parser validates the document as OpenAPI 3.1 without errors or warnings', async () => {
  // The parser dereferences in place: give it a copy.
  const result = await validate(structuredClone(doc) as never);
  if (!result.valid) throw new Error(compileErrors(result));
  expect(result.valid).toBe(true);
  expect(result.warnings).toEqual([]);
  expect(doc.openapi).toBe('3.1.0');
});

test('info.version is the package version; servers is the configured public URL', () => {
  expect(doc.info.version).toBe(serviceVersion);
  expect(doc.servers).toEqual([{ url: 'https://api.example.com', description: 'This deployment' }]);
});

test('every JSON route of the REST route table is documented, and nothing else (the HTML activation page aside)', () => {
  const HTML_PAGES = new Set(['/newsletter/activate']);
  const routed = restRouter({} as AppDeps)
    .stack.filter((layer) => !HTML_PAGES.has(String(layer.path)))
    .flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${toOpenApiPath(String(layer.path))}`),
    );
  const documented = operations(doc)
    .map((o) => `${o.method} ${o.path}`)
    .filter((o) => !o.includes(' /oauth2/'));
  expect(documented.sort()).toEqual([...new Set(routed)].sort());
});

test('the five operations on their six paths, plus the otp request, each with an operationId and a tag', () => {
  expect(
    operations(doc)
      .map((o) => `${o.method} ${o.path} ${o.op.operationId}`)
      .sort(),
  ).toEqual([
    'delete /cms/customer/coupon/remove removeCouponFromCart',
    'delete /customer/coupon/remove_coupon removeCouponFromCartLegacy',
    'get /cms/page/{id}/issues listPageIssues',
    'get /cms/product/categories listProductCategories',
    'post /cms/channel/{channel_id}/activate_subscription activateNewsletterSubscription',
    'post /oauth2/access_token requestAccessToken',
    'post /oauth2/otp requestOneTimeCode',
  ]);
  const tags = new Set((doc.tags ?? []).map((t) => t.name));
  for (const { op } of operations(doc)) {
    expect(op.tags).toHaveLength(1);
    expect(tags.has(op.tags[0])).toBe(true);
  }
});

test('the legacy coupon path is deprecated and documents Deprecation and Link on every answer', () => {
  const legacy = (doc.paths as any)['/customer/coupon/remove_coupon'].delete;
  expect(legacy.deprecated).toBe(true);
  expect((doc.paths as any)['/cms/customer/coupon/remove'].delete.deprecated).toBeFalsy();
  for (const response of Object.values<any>(legacy.responses)) {
    expect(Object.keys(response.headers)).toEqual(expect.arrayContaining(['Deprecation', 'Link']));
  }
  expect((doc.components as any).headers.SuccessorLink.schema.const).toBe(
    '</cms/customer/coupon/remove>; rel="successor-version"',
  );
});

test("security schemes: bearer JWT, OAuth 2.0 flows at this deployment's token URL, OpenID Connect discovery, client_secret_basic", () => {
  const schemes = (doc.components as any).securitySchemes;
  expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  expect(schemes.oauth2.flows.password.tokenUrl).toBe('https://api.example.com/oauth2/access_token');
  expect(schemes.oauth2.flows.authorizationCode).toMatchObject({
    authorizationUrl: 'https://api.example.com/oauth2/authorize',
    tokenUrl: 'https://api.example.com/oauth2/access_token',
  });
  expect(Object.keys(schemes.oauth2.flows.password.scopes)).toEqual([
    'openid',
    'offline_access',
    'profile',
    'email',
    'cart',
  ]);
  expect(schemes.openIdConnect.openIdConnectUrl).toBe(
    'https://api.example.com/oauth2/.well-known/openid-configuration',
  );
  expect(schemes.clientSecretBasic).toMatchObject({ type: 'http', scheme: 'basic' });
  const security = (path: string, method: string) => (doc.paths as any)[path][method].security;
  expect(security('/cms/customer/coupon/remove', 'delete')).toEqual([{ oauth2: ['cart'] }, { bearerAuth: ['cart'] }]);
  expect(security('/cms/product/categories', 'get')).toContainEqual({});
  expect(security('/oauth2/access_token', 'post')).toEqual([{ clientSecretBasic: [] }, {}]);
});

test('REST errors are problem+json; OAuth errors are RFC 6749 JSON', () => {
  for (const { path, op } of operations(doc)) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (Number(status) < 400) continue;
      expect(Object.keys(response.content)).toEqual([
        path.startsWith('/oauth2/') ? 'application/json' : 'application/problem+json',
      ]);
    }
  }
});

test('query parameters are documented with their types, ranges and defaults', () => {
  const params = (path: string, method: string) =>
    Object.fromEntries(((doc.paths as any)[path][method].parameters as any[]).map((p) => [`${p.in}:${p.name}`, p]));
  const issues = params('/cms/page/{id}/issues', 'get');
  expect(issues['query:limit'].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
  expect(issues['query:page'].schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
  expect(issues['path:id'].required).toBe(true);
  const categories = params('/cms/product/categories', 'get');
  expect(categories['query:available'].schema).toMatchObject({ type: 'boolean', default: true });
  expect(categories['query:includeProducts'].schema).toMatchObject({ type: 'boolean', default: true });
  expect(categories['query:lang'].schema).toMatchObject({ type: 'string', pattern: '^[a-z]{2}$' });
  expect(categories['query:page'].schema).toMatchObject({
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000,
    default: 1,
  });
  expect(categories['query:limit'].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
  expect(categories['query:productsLimit'].schema).toMatchObject({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 10,
  });
  const ok = (doc.paths as any)['/cms/product/categories'].get.responses['200'];
  expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(['Link', 'X-Total-Count']));
});
