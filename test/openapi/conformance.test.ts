// The response checker itself: it accepts what the document declares and rejects each kind of drift
// (wrong code, undocumented field, missing required header, undocumented status or content type, a
// body where none is documented), so the live-response tests cannot pass vacuously.
import { loadConfig } from '../../src/config.js';
import { openApiJson, type OpenApiDocument } from '../../src/openapi/document.js';
import { Conformance, type LiveResponse } from './conformance.js';

const conformance = new Conformance(JSON.parse(openApiJson(loadConfig({ NODE_ENV: 'test' }))) as OpenApiDocument);
const ISSUES = '/cms/page/{id}/issues';
const ACTIVATE = '/cms/channel/{channel_id}/activate_subscription';

function response(status: number, body: unknown, headers: Record<string, string> = {}): LiveResponse {
  const type = status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8';
  return {
    status,
    headers: new Headers({
      'x-request-id': 'req-1',
      ...(body === undefined ? {} : { 'content-type': type }),
      ...headers,
    }),
    text: body === undefined ? '' : JSON.stringify(body),
  };
}

const pageNotFound = {
  type: 'urn:gateway:problem:page-not-found',
  title: 'Page not found',
  status: 404,
  code: 'PAGE_NOT_FOUND',
  detail: 'There is no page x',
};

test('a documented answer passes', () => {
  expect(conformance.check('GET', ISSUES, response(404, pageNotFound))).toEqual([]);
  expect(conformance.check('POST', ACTIVATE, response(200, { error: false }, { 'cache-control': 'no-store' }))).toEqual(
    [],
  );
  expect(
    conformance.check(
      'POST',
      ACTIVATE,
      response(200, { error: true, message: 'Invalid or expired activation key' }, { 'cache-control': 'no-store' }),
    ),
  ).toEqual([]);
});

test('a code or title the response does not document fails', () => {
  expect(conformance.check('GET', ISSUES, response(404, { ...pageNotFound, code: 'NOT_FOUND' }))).not.toEqual([]);
  expect(conformance.check('GET', ISSUES, response(404, { ...pageNotFound, title: 'Not Found' }))).not.toEqual([]);
});

test('a field the document does not mention fails, though the document itself leaves objects open', () => {
  const found = conformance.check('GET', ISSUES, response(404, { ...pageNotFound, stack: 'Error: at ...' }));
  expect(found.join('\n')).toMatch(/undocumented field.*additionalProperty.*stack/);
  expect(
    conformance.check(
      'POST',
      ACTIVATE,
      response(200, { error: false, subscribed: true }, { 'cache-control': 'no-store' }),
    ),
  ).not.toEqual([]);
});

test('a wrong type fails', () => {
  expect(
    conformance.check('POST', ACTIVATE, response(200, { error: 'no' }, { 'cache-control': 'no-store' })),
  ).not.toEqual([]);
});

test('a missing required header fails', () => {
  const res = response(404, pageNotFound);
  res.headers.delete('x-request-id');
  expect(conformance.check('GET', ISSUES, res).join('\n')).toMatch(/X-Request-Id is missing/);
  expect(conformance.check('POST', ACTIVATE, response(200, { error: false })).join('\n')).toMatch(
    /Cache-Control is missing/,
  );
});

test('an undocumented status, content type or body fails', () => {
  expect(conformance.check('GET', ISSUES, response(418, pageNotFound)).join('\n')).toMatch(/not documented/);
  expect(
    conformance.check('GET', ISSUES, response(404, pageNotFound, { 'content-type': 'application/json' })).join('\n'),
  ).toMatch(/content type application\/json is not documented/);
  expect(
    conformance
      .check('GET', ISSUES, response(304, { issues: [] }, { etag: '"abc"', 'cache-control': 'public, max-age=60' }))
      .join('\n'),
  ).toMatch(/without a body/);
  expect(conformance.check('GET', '/cms/pages', response(200, {}))).toEqual(['GET /cms/pages is not in the document']);
});
