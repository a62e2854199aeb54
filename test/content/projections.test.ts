// Reads narrowed to the operation's selection (store/projection.ts) must never change an answer: for every field
// of the types read that way, reached through every kind of loader, asking for the field alone gives exactly
// what asking for it among all the type's fields (which reads whole documents) gives.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { buildGatewaySchema } from '../../src/graphql/build-schema.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor } from '../helpers/tokens.js';
import * as f from './fixtures.js';
import { contentGraph } from './graph.fixture.js';

let svc: TestService;
let subscriberToken: string;
const { fixture } = contentGraph({ issues: 1, articlesPerIssue: 2 });
// Premium articles, so that access (body, preview, accessAllowed) is decided on narrowed reads too.
fixture.articles!.push(
  f.article('g-premium', {
    premium: true,
    accessControlEnabled: true,
    previewLimit: 7,
    categoryIds: ['g-cat-a'],
    authorIds: ['g-au-1'],
    keywordIds: ['g-kw-1'],
  }),
);
fixture.issues![0]!.contents[0]!.articleIds.push('g-premium');
const premiumSlug = fixture.articles!.find((a) => a._id === 'g-premium')!.slug;

beforeAll(async () => {
  svc = await startTestService();
  await f.insert(svc.db, fixture);
  subscriberToken = (await tokenFor(svc, { scopes: ['openid'], entitlements: [{ group: 'subscription' }] }))
    .accessToken;
});
afterAll(() => svc.close());

/** Scalar fields of an object type (depth 1), or just its __typename. */
function leaves(type: GraphQLObjectType): string {
  const names = Object.values(type.getFields())
    .filter((field) => isLeafType(getNamedType(field.type)) && field.args.every((a) => !isNonNullType(a.type)))
    .map((field) => field.name);
  return `{ __typename ${names.join(' ')} }`;
}

/** A selection of `field`, with arguments for the ones it requires and a depth-1 subselection. */
function selection(field: GraphQLField<unknown, unknown>): string {
  const required = field.args.filter((a) => isNonNullType(a.type));
  const value = (type: string) => (type.startsWith('Int') ? '3' : '"en"');
  const args = required.length
    ? `(${required.map((a) => `${a.name}: ${value(String(getNamedType(a.type)))}`).join(', ')})`
    : '';
  const target = getNamedType(field.type);
  return `${field.name}${args} ${isObjectType(target) ? leaves(target) : isLeafType(target) ? '' : '{ __typename }'}`;
}

const one = (x: any) => [x];
const contents = (key: 'articles' | 'category') => (x: any) =>
  x.contents.flatMap((c: any) => (key === 'articles' ? c.articles : [c.category]));
const nodes = (x: any) => x.edges.map((e: any) => e.node);
/** Where the objects of `type` are, and how to reach them all from the answer's `x`. */
const paths: Array<{ type: string; via: string; open: string; close: string; objects: (x: any) => any[] }> = [
  { type: 'Article', via: 'article(id) (byId)', open: '{ x: article(id: "g-premium") {', close: '} }', objects: one },
  {
    type: 'Article',
    via: 'article(slug) (by slug)',
    open: `{ x: article(slug: "${premiumSlug}") {`,
    close: '} }',
    objects: one,
  },
  {
    type: 'Article',
    via: 'issue contents (byId batch)',
    open: '{ x: issue(id: "g-issue-1") { contents { articles {',
    close: '} } } }',
    objects: contents('articles'),
  },
  {
    type: 'Article',
    via: 'articles (root list)',
    open: '{ x: articles(first: 5) { edges { node {',
    close: '} } } }',
    objects: nodes,
  },
  {
    type: 'Article',
    via: "a category's articles (children loader)",
    open: '{ x: contentCategory(id: "g-cat-a") { articles(first: 5) { edges { node {',
    close: '} } } } }',
    objects: (x) => nodes(x.articles),
  },
  { type: 'Issue', via: 'issue(id) (byId)', open: '{ x: issue(id: "g-issue-1") {', close: '} }', objects: one },
  {
    type: 'Issue',
    via: "a page's issues (children loader)",
    open: '{ x: page(id: "g-page") { issues(first: 5) { edges { node {',
    close: '} } } } }',
    objects: (x) => nodes(x.issues),
  },
  { type: 'Author', via: 'author(id)', open: '{ x: author(id: "g-au-1") {', close: '} }', objects: one },
  {
    type: 'Author',
    via: 'article authors',
    open: '{ x: article(id: "g-premium") { authors {',
    close: '} } }',
    objects: (x) => x.authors,
  },
  { type: 'Keyword', via: 'keyword(id)', open: '{ x: keyword(id: "g-kw-1") {', close: '} }', objects: one },
  {
    type: 'Keyword',
    via: 'article keywords',
    open: '{ x: article(id: "g-premium") { keywords {',
    close: '} } }',
    objects: (x) => x.keywords,
  },
  {
    type: 'ContentCategory',
    via: 'contentCategory(id)',
    open: '{ x: contentCategory(id: "g-cat-a") {',
    close: '} }',
    objects: one,
  },
  {
    type: 'ContentCategory',
    via: 'issue content categories',
    open: '{ x: issue(id: "g-issue-1") { contents { category {',
    close: '} } } }',
    objects: contents('category'),
  },
];

for (const viewer of ['anonymous', 'subscriber'] as const) {
  describe(`${viewer}: one field alone reads the same as all fields together`, () => {
    test.each(paths)('$type through $via', async ({ type, open, close, objects }) => {
      const schema = await buildGatewaySchema();
      const fields = Object.values((schema.getType(type) as GraphQLObjectType).getFields());
      const headers = viewer === 'subscriber' ? { authorization: `Bearer ${subscriberToken}` } : undefined;
      const ask = async (inner: string) => {
        const res = await svc.gql(`${open} ${inner} ${close}`, undefined, headers);
        expect(res.body.errors).toBeUndefined();
        return objects((res.body.data as { x: unknown }).x);
      };
      const whole = await ask(fields.map(selection).join('\n'));
      expect(whole.length).toBeGreaterThan(0);
      for (const field of fields) {
        const alone = await ask(selection(field));
        const expected = whole.map((o) => ({ [field.name]: o[field.name] }));
        expect({ field: field.name, value: alone }).toEqual({ field: field.name, value: expected });
      }
    });
  });
}

test('two loaders of one type in one operation each read what they need (the page of issues keeps its sort keys)', async () => {
  const pageOfIssues = 'x: page(id: "g-page") { issues(first: 1) { edges { cursor node { title } } } }';
  const alone = await svc.gql(`{ ${pageOfIssues} }`);
  // issue(id) narrows the same Issue selection with other fields always read; it runs first here.
  const together = await svc.gql(`{ y: issue(id: "g-issue-1") { title } ${pageOfIssues} }`);
  expect(together.body.errors).toBeUndefined();
  expect((together.body.data as any).x).toEqual((alone.body.data as any).x);
});
