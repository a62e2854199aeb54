// What anonymous and signed-in readers may see: statuses (docs/api.md) and premium access (§3).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Entitlement, Viewer } from '../../src/context.js';
import { unauthenticated } from '../../src/errors.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';

const future = new Date(Date.now() + 86_400_000);
const past = new Date(Date.now() - 86_400_000);

/** Bearer tokens the test hands out: each stands for a customer with the given entitlements. */
const tokens: Record<string, Entitlement[]> = {
  subscriber: [{ group: 'subscription', validUntil: future }],
  lapsed: [{ group: 'subscription', validUntil: past }],
  gold: [{ group: 'gold', validUntil: null }],
};

const viewerFor = (name: string): Viewer => ({
  customerId: `cust-${name}`,
  scopes: new Set(['openid']),
  entitlements: async () => tokens[name]!,
});

let svc: TestService;
const premiumPreview = 'Ünïcödé preview that is longer than the limit';

beforeAll(async () => {
  svc = await startTestService({
    authenticate: async (authorization) => {
      if (!authorization) return null;
      const name = authorization.replace(/^Bearer /, '');
      if (!(name in tokens)) throw unauthenticated();
      return viewerFor(name);
    },
  });
  await f.insert(svc.db, {
    pages: [f.page('p-1')],
    issues: [
      f.issue('i-pub', 'p-1', {
        issueNumber: 1,
        contents: [{ categoryId: 'c-1', articleIds: ['a-pub', 'a-draft', 'a-archived', 'a-scheduled'] }],
      }),
      f.issue('i-draft', 'p-1', { status: 'draft', issueNumber: 2 }),
      f.issue('i-archived', 'p-1', { status: 'archived', issueNumber: 3 }),
      f.issue('i-scheduled', 'p-1', { status: 'scheduled', issueNumber: 4 }),
    ],
    articles: [
      f.article('a-pub', { categoryIds: ['c-1'], keywordIds: ['k-1'], authorIds: ['au-1'] }),
      f.article('a-draft', { status: 'draft', categoryIds: ['c-1'], keywordIds: ['k-1'], authorIds: ['au-1'] }),
      f.article('a-archived', { status: 'archived', categoryIds: ['c-1'], keywordIds: ['k-1'], authorIds: ['au-1'] }),
      f.article('a-scheduled', { status: 'scheduled', categoryIds: ['c-1'], keywordIds: ['k-1'], authorIds: ['au-1'] }),
      f.article('a-premium', {
        premium: true,
        free: false,
        accessControlEnabled: true,
        previewLimit: 7,
        preview: premiumPreview,
        body: '<p>secret</p>',
        elements: { liveBlogIds: [], pollIds: ['poll-1'], quizIds: [], videoPlatformVideoIds: [] },
      }),
      f.article('a-gold', {
        premium: true,
        free: false,
        accessControlEnabled: true,
        accessGroups: ['gold'],
        previewLimit: 3,
        body: '<p>gold</p>',
      }),
      f.article('a-premium-open', {
        premium: true,
        free: false,
        accessControlEnabled: false,
        previewLimit: 3,
        body: '<p>open</p>',
      }),
    ],
    contentCategories: [f.category('c-1')],
    keywords: [f.keyword('k-1')],
    authors: [f.author('au-1')],
    polls: [f.poll('poll-1')],
    pollVotes: [{ _id: 'v-1', pollId: 'poll-1', customerId: 'cust-subscriber', choiceId: 'no', votedAt: past }],
  });
});
afterAll(() => svc.close());

async function data(query: string, token?: string): Promise<any> {
  const res = await svc.gql(query, undefined, token ? { authorization: `Bearer ${token}` } : {});
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

describe('statuses', () => {
  test('draft, archived and scheduled issues are absent from a page and its count', async () => {
    const d = await data(`{ page(id: "p-1") { issues(first: 10) { totalCount edges { node { id } } } } }`);
    expect(d.page.issues).toEqual({ totalCount: 1, edges: [{ node: { id: 'i-pub' } }] });
    for (const id of ['i-draft', 'i-archived', 'i-scheduled'])
      expect((await data(`{ issue(id: "${id}") { id } }`)).issue).toBeNull();
  });

  test('draft, archived and scheduled articles are absent everywhere, for anonymous and signed-in readers', async () => {
    for (const token of [undefined, 'subscriber']) {
      const d = await data(
        `{
        issue(id: "i-pub") { contents { articles { id } } }
        contentCategory(id: "c-1") { articles(first: 10) { totalCount edges { node { id } } } }
        keyword(id: "k-1") { articles(first: 10) { totalCount } }
        author(id: "au-1") { articles(first: 10) { totalCount } }
        draft: article(id: "a-draft") { id } archived: article(id: "a-archived") { id } scheduled: article(slug: "slug-a-scheduled") { id }
      }`,
        token,
      );
      expect(d.issue.contents).toEqual([{ articles: [{ id: 'a-pub' }] }]);
      expect(d.contentCategory).toEqual({ articles: { totalCount: 1, edges: [{ node: { id: 'a-pub' } }] } });
      expect(d.keyword.articles.totalCount).toBe(1);
      expect(d.author.articles.totalCount).toBe(1);
      expect([d.draft, d.archived, d.scheduled]).toEqual([null, null, null]);
    }
  });
});

describe('premium access', () => {
  const q = `{ article(id: "a-premium") { accessAllowed body preview previewLimit premium accessControlEnabled } }`;

  test('an anonymous reader gets no body and a preview cut to previewLimit characters', async () => {
    expect((await data(q)).article).toEqual({
      accessAllowed: false,
      body: null,
      preview: 'Ünïcödé',
      previewLimit: 7,
      premium: true,
      accessControlEnabled: true,
    });
  });

  test('a viewer with an active subscription entitlement gets the whole article', async () => {
    expect((await data(q, 'subscriber')).article).toMatchObject({
      accessAllowed: true,
      body: '<p>secret</p>',
      preview: premiumPreview,
    });
  });

  test('an expired entitlement or one for another group does not unlock it', async () => {
    expect((await data(q, 'lapsed')).article).toMatchObject({ accessAllowed: false, body: null, preview: 'Ünïcödé' });
    expect((await data(q, 'gold')).article).toMatchObject({ accessAllowed: false, body: null });
  });

  test("an article's own access groups replace the default", async () => {
    const gq = `{ article(id: "a-gold") { accessAllowed body accessGroups } }`;
    expect((await data(gq, 'gold')).article).toEqual({
      accessAllowed: true,
      body: '<p>gold</p>',
      accessGroups: ['gold'],
    });
    expect((await data(gq, 'subscriber')).article).toEqual({
      accessAllowed: false,
      body: null,
      accessGroups: ['gold'],
    });
  });

  test('premium without access control is readable by everybody', async () => {
    expect((await data(`{ article(id: "a-premium-open") { accessAllowed body } }`)).article).toEqual({
      accessAllowed: true,
      body: '<p>open</p>',
    });
  });

  test('an invalid token is a 401, never a silently anonymous read', async () => {
    const res = await svc.gql(q, undefined, { authorization: 'Bearer forged' });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('per-viewer poll fields', () => {
  test("voted and votedChoice come from the viewer's own vote", async () => {
    const pq = `{ article(id: "a-premium") { elements { polls { voted votedChoice } } } }`;
    expect((await data(pq)).article.elements.polls).toEqual([{ voted: false, votedChoice: null }]);
    expect((await data(pq, 'subscriber')).article.elements.polls).toEqual([
      { voted: true, votedChoice: 'PollChoice:poll-1:no' },
    ]);
    expect((await data(pq, 'gold')).article.elements.polls).toEqual([{ voted: false, votedChoice: null }]);
  });
});
