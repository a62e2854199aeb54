// Premium live blogs over HTTP follow the article access rules (docs/api.md), as subscriptions do: a reader
// without an active entitlement of a premium carrier gets no messages (and `accessAllowed: false`) through
// node, nodes and the article's elements; an entitled reader gets them. The response cache never gives a premium
// blog's messages to an anonymous reader or to a reader with other entitlements, and the rule is read in one
// store command per batch of blogs.
import type { CommandStartedEvent } from 'mongodb';
import * as f from '../content/fixtures.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';

const elements = (liveBlogIds: string[]) => ({ liveBlogIds, pollIds: [], quizIds: [], videoPlatformVideoIds: [] });
const premium = { premium: true, free: false, accessControlEnabled: true };

/** Blogs: gold-only, subscription (a premium article without groups), open, carried by a premium and an open article, and by none. */
const BLOGS = ['lb-gold', 'lb-sub', 'lb-open', 'lb-shared', 'lb-orphan'];
const fixture = (): f.Fixture => ({
  articles: [
    f.article('a-gold', { ...premium, accessGroups: ['gold'], elements: elements(['lb-gold', 'lb-shared']) }),
    f.article('a-sub', { ...premium, accessGroups: [], elements: elements(['lb-sub']) }),
    f.article('a-open', { elements: elements(['lb-open', 'lb-shared']) }),
    // A premium article that is not published does not make its blog premium, nor does an open one open it.
    f.article('a-draft', { status: 'draft', elements: elements(['lb-gold']) }),
  ],
  liveBlogs: BLOGS.map((id) => f.liveBlog(id, 3)),
  liveBlogMessages: BLOGS.flatMap((id) => [1, 2, 3].map((seq) => f.message(id, seq))),
  // The REST list of a page's issues shows the gold article with its elements.
  pages: [f.page('p-live')],
  issues: [f.issue('i-live', 'p-live', { contents: [{ categoryId: 'c-live', articleIds: ['a-gold'] }] })],
  contentCategories: [f.category('c-live')],
});

const messageIds = (blog: string) => [3, 2, 1].map((seq) => `${blog}-m${seq}`);

const BLOG_FIELDS = 'id accessAllowed previewMessages { id text }';
const NODE = `query($id: ID!) { node(id: $id) { ... on LiveBlog { ${BLOG_FIELDS} } } }`;
const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on LiveBlog { ${BLOG_FIELDS} } } }`;
const ARTICLE = `query($id: ID!) { article(id: $id) { elements { liveBlogs { ${BLOG_FIELDS} } } } }`;

type Blog = { id: string; accessAllowed: boolean; previewMessages: Array<{ id: string }> };
/** What a reader sees of a blog: whether access is allowed, and the ids of the messages given. */
const seen = (blog: Blog) => ({
  id: blog.id,
  accessAllowed: blog.accessAllowed,
  messages: blog.previewMessages.map((m) => m.id),
});
const allowed = (id: string) => ({ id, accessAllowed: true, messages: messageIds(id) });
const refused = (id: string) => ({ id, accessAllowed: false, messages: [] });

describe('through the service, with the response cache on', () => {
  let svc: TestService;
  const tokens: Record<'plain' | 'gold' | 'lapsed' | 'subscriber', string> = {
    plain: '',
    gold: '',
    lapsed: '',
    subscriber: '',
  };

  beforeAll(async () => {
    svc = await startTestService({ env: { RESPONSE_CACHE_MB: '16' } });
    await f.insert(svc.db, fixture());
    const reader = async (entitlements: Array<{ group: string; validUntil?: Date | null }>) =>
      (await tokenFor(svc, { scopes: ['openid'], entitlements })).accessToken;
    [tokens.plain, tokens.gold, tokens.lapsed, tokens.subscriber] = await Promise.all([
      reader([]),
      reader([{ group: 'gold', validUntil: new Date(Date.now() + 86_400_000) }]),
      reader([{ group: 'gold', validUntil: new Date(Date.now() - 1000) }]),
      reader([{ group: 'subscription' }]),
    ]);
  });
  afterAll(() => svc.close());

  async function ask(query: string, variables: Record<string, unknown>, who: keyof typeof tokens | 'anonymous') {
    const res = await svc.gql<any>(query, variables, who === 'anonymous' ? {} : bearer(tokens[who]));
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  }

  /** What each kind of reader sees of each blog. */
  const expected: Record<keyof typeof tokens | 'anonymous', Record<string, ReturnType<typeof allowed>>> = {
    anonymous: { 'lb-gold': refused('lb-gold'), 'lb-sub': refused('lb-sub') },
    plain: { 'lb-gold': refused('lb-gold'), 'lb-sub': refused('lb-sub') },
    lapsed: { 'lb-gold': refused('lb-gold'), 'lb-sub': refused('lb-sub') },
    gold: { 'lb-gold': allowed('lb-gold'), 'lb-sub': refused('lb-sub') },
    subscriber: { 'lb-gold': refused('lb-gold'), 'lb-sub': allowed('lb-sub') },
  };
  const view = (who: keyof typeof expected, id: string) => expected[who][id] ?? allowed(id);
  const readers = Object.keys(expected) as Array<keyof typeof expected>;

  test.each(readers)('node(id:) as %s: premium messages only with the entitlement', async (who) => {
    for (const id of BLOGS) expect(seen((await ask(NODE, { id }, who)).node)).toEqual(view(who, id));
  });

  test.each(readers)('nodes(ids:) as %s: the same rule for every blog of the batch', async (who) => {
    const data = await ask(NODES, { ids: BLOGS }, who);
    expect(data.nodes.map(seen)).toEqual(BLOGS.map((id) => view(who, id)));
  });

  test.each(readers)("an article's elements as %s: the same rule as the blog's own entry point", async (who) => {
    for (const [article, blogs] of [
      ['a-gold', ['lb-gold', 'lb-shared']],
      ['a-sub', ['lb-sub']],
      ['a-open', ['lb-open', 'lb-shared']],
    ] as const) {
      const data = await ask(ARTICLE, { id: article }, who);
      expect(data.article.elements.liveBlogs.map(seen)).toEqual(blogs.map((id) => view(who, id)));
    }
  });

  test('cached GET answers: an anonymous or differently entitled reader never gets the entitled answer', async () => {
    const urlOf = (query: string, variables: Record<string, unknown>) =>
      `${svc.url}/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`;
    const get = async (url: string, who: keyof typeof tokens | 'anonymous') => {
      const res = await fetch(url, {
        headers: { 'apollo-require-preflight': 'true', ...(who === 'anonymous' ? {} : bearer(tokens[who])) },
      });
      const text = await res.text();
      const data = (JSON.parse(text) as { data: { node?: Blog; article?: { elements: { liveBlogs: Blog[] } } } }).data;
      const blog = data.node ?? data.article!.elements.liveBlogs.find((b) => b.id === 'lb-gold')!;
      return {
        cache: res.headers.get('x-cache'),
        cacheControl: res.headers.get('cache-control'),
        text,
        blog: seen(blog),
      };
    };
    const article = urlOf(ARTICLE, { id: 'a-gold' });
    // The entitled reader asks first: that answer is stored under the gold entitlement set, privately.
    const gold = await get(article, 'gold');
    expect(gold.blog).toEqual(allowed('lb-gold'));
    expect(gold.cacheControl).toMatch(/^max-age=\d+, private$/);
    expect((await get(article, 'gold')).cache).toBe('HIT');

    // The same URLs (the article, and the blog by node), anonymously: computed for everyone, public, stored
    // without the messages.
    for (const url of [article, urlOf(NODE, { id: 'lb-gold' })]) {
      const first = await get(url, 'anonymous');
      expect(first.cacheControl).toMatch(/^max-age=\d+, public$/);
      const again = await get(url, 'anonymous');
      expect(again.cache).toBe('HIT');
      for (const answer of [first, again]) {
        expect(answer.blog).toEqual(refused('lb-gold'));
        expect(answer.text).not.toContain('lb-gold-m');
      }
    }
    // Readers with other entitlements, or lapsed ones, share the answer of their own set, never gold's.
    for (const who of ['plain', 'lapsed', 'subscriber'] as const) {
      const answer = await get(article, who);
      expect(answer.blog).toEqual(refused('lb-gold'));
      expect(answer.text).not.toContain('lb-gold-m');
    }
  });

  test('the REST list of issues (a GraphQL document underneath) follows the same rule', async () => {
    const list = async (who: keyof typeof tokens | 'anonymous') => {
      const res = await fetch(`${svc.url}/cms/page/p-live/issues`, {
        headers: who === 'anonymous' ? {} : bearer(tokens[who]),
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    for (const who of ['anonymous', 'plain', 'subscriber'] as const) {
      const text = await list(who);
      expect(text).toContain('"lb-gold"');
      expect(text).not.toContain('lb-gold-m');
    }
    expect(await list('gold')).toContain('lb-gold-m3');
    expect(await list('anonymous')).not.toContain('lb-gold-m');
  });
});

describe('store round trips', () => {
  let svc: MonitoredService;

  beforeAll(async () => {
    svc = await startMonitoredService({
      prefix: 'lbaccess',
      beforeStart: async (_store, db) => {
        const many = Array.from({ length: 30 }, (_, i) => `lb-many-${i}`);
        await f.insert(db, {
          articles: [
            ...many.map((id, i) =>
              f.article(`a-many-${i}`, { ...premium, accessGroups: [`group-${i % 4}`], elements: elements([id]) }),
            ),
            // One blog carried by many articles is still one row of the rule's answer.
            ...Array.from({ length: 150 }, (_, i) =>
              f.article(`a-wide-${i}`, { ...premium, elements: elements(['lb-one', ...many.slice(0, 3)]) }),
            ),
          ],
          liveBlogs: [...many, 'lb-one'].map((id) => f.liveBlog(id, 3)),
          liveBlogMessages: [...many, 'lb-one'].flatMap((id) => [1, 2, 3].map((seq) => f.message(id, seq))),
        });
      },
    });
  });
  afterAll(() => svc.close());

  async function sent(ids: string[]): Promise<string[]> {
    svc.commands.length = 0;
    const res = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: NODES, variables: { ids } }),
    });
    const body = (await res.json()) as { data?: { nodes: Blog[] }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data!.nodes.map(seen)).toEqual(ids.map(refused));
    return svc.commands
      .filter(
        (c: CommandStartedEvent) =>
          !['getMore', 'killCursors'].includes(c.commandName) || String(c.command.collection) === 'articles',
      )
      .filter(
        (c) =>
          !(
            c.commandName === 'aggregate' &&
            Array.isArray(c.command.pipeline) &&
            '$changeStream' in (c.command.pipeline[0] ?? {})
          ),
      )
      .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`)
      .sort();
  }

  test('30 premium blogs cost the store commands of one', async () => {
    const one = await sent(['lb-one']);
    const thirty = await sent(Array.from({ length: 30 }, (_, i) => `lb-many-${i}`));
    expect(thirty).toEqual(one);
    // One aggregate for the rule of every blog (the find is `nodes` looking for articles with these ids).
    expect(one.filter((c) => c.endsWith(':articles'))).toEqual(['aggregate:articles', 'find:articles']);
    // Without access, the messages are not even read.
    expect(one.some((c) => c.endsWith(':liveBlogMessages'))).toBe(false);
  });
});
