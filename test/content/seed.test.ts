// The content generator: same seed, same data; every reference resolves; the demo reads back through the API.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Db } from 'mongodb';
import { createLogger } from '../../src/logger.js';
import { Faker, base, en } from '@faker-js/faker';
import { articleTitle } from '../../src/seed/content-articles.js';
import { buildPools } from '../../src/seed/content-pools.js';
import type { GenContext } from '../../src/seed/content-sizes.js';
import { runSeeders } from '../../src/seed/index.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';

const log = createLogger('silent');
/** The moment of seeding the runs share: same seed, same moment, same data. */
const NOW = Date.UTC(2027, 5, 15, 12);
const DAY = 86_400_000;
const opened: Array<{ close(): Promise<void> }> = [];

async function seeded(seed: number, now = NOW): Promise<{ db: Db; counts: Record<string, number> }> {
  const t = await openTestDb('seed');
  opened.push(t);
  const store = await Store.onDb(t.client, t.db);
  const counts = await runSeeders(store, { scale: 'tiny', seed, now, log, only: ['content'] });
  return { db: t.db, counts };
}

const all = (db: Db, name: string) =>
  db
    .collection(name)
    .find({}, { sort: { _id: 1 } })
    .toArray();

let a: Awaited<ReturnType<typeof seeded>>;
let b: Awaited<ReturnType<typeof seeded>>;
let c: Awaited<ReturnType<typeof seeded>>;
let later: Awaited<ReturnType<typeof seeded>>;

beforeAll(async () => {
  [a, b, c, later] = await Promise.all([seeded(7), seeded(7), seeded(8), seeded(7, NOW + 400 * DAY)]);
}, 180_000);
afterAll(async () => {
  for (const t of opened) await t.close();
});

const COLLECTIONS = [
  'pages',
  'issues',
  'articles',
  'contentCategories',
  'categoryTypes',
  'contentTypes',
  'sponsors',
  'authors',
  'keywords',
  'videos',
  'liveBlogs',
  'liveBlogMessages',
  'polls',
  'quizzes',
  'channels',
];

describe('determinism', () => {
  test('the same seed gives the same documents in every collection', async () => {
    for (const name of COLLECTIONS) expect(await all(a.db, name)).toEqual(await all(b.db, name));
    expect(a.counts).toEqual(b.counts);
  });

  test('another seed gives other data of the same shape and size', async () => {
    // Live blogs draw their length from the seed; everything else is sized by the scale alone.
    const { liveBlogMessages: _a, ...sizeA } = a.counts;
    const { liveBlogMessages: _c, ...sizeC } = c.counts;
    expect(sizeC).toEqual(sizeA);
    const [x, y] = [await all(a.db, 'articles'), await all(c.db, 'articles')];
    expect(x.map((d) => d._id)).toEqual(y.map((d) => d._id));
    expect(x.map((d) => d.title)).not.toEqual(y.map((d) => d.title));
  });
});

describe('the generated graph', () => {
  test('the tiny scale has what its table says, every collection non-empty', () => {
    expect(a.counts.articles).toBe(60);
    for (const name of COLLECTIONS) expect(a.counts[name]).toBeGreaterThan(0);
  });

  test('every reference points at an existing document', async () => {
    const ids = async (name: string) => new Set((await all(a.db, name)).map((d) => String(d._id)));
    const [
      articles,
      categories,
      authors,
      keywords,
      videos,
      pages,
      polls,
      quizzes,
      blogs,
      channels,
      sponsors,
      contentTypes,
      categoryTypes,
    ] = await Promise.all(
      [
        'articles',
        'contentCategories',
        'authors',
        'keywords',
        'videos',
        'pages',
        'polls',
        'quizzes',
        'liveBlogs',
        'channels',
        'sponsors',
        'contentTypes',
        'categoryTypes',
      ].map(ids),
    );
    const expectIn = (set: Set<string>, values: Array<string | null | undefined>) => {
      for (const v of values) if (v != null) expect(set.has(v) ? v : `missing ${v}`).toBe(v);
    };
    for (const issue of await all(a.db, 'issues')) {
      expectIn(pages, [issue.pageId]);
      expectIn(polls, [issue.pollId]);
      expectIn(channels, [issue.channelId]);
      expectIn(authors, issue.authorIds);
      for (const content of issue.contents) {
        expectIn(categories, [content.categoryId]);
        expectIn(articles, content.articleIds);
      }
      for (const s of issue.dynamicSections) expectIn(articles, s.articleIds);
      expect(issue.contents.length).toBeGreaterThan(0);
    }
    for (const article of await all(a.db, 'articles')) {
      expectIn(categories, [...article.categoryIds, article.categoryId]);
      expectIn(authors, [...article.authorIds, article.authorId]);
      expectIn(keywords, article.keywordIds);
      expectIn(sponsors, [article.sponsorId]);
      expectIn(contentTypes, [article.contentTypeId]);
      expectIn(
        videos,
        [...article.attachments, ...article.videos].map((x: { videoId: string | null }) => x.videoId),
      );
      expectIn(blogs, article.elements.liveBlogIds);
      expectIn(polls, article.elements.pollIds);
      expectIn(quizzes, article.elements.quizIds);
      expect(article.body.length).toBe(article.contentLength);
    }
    for (const category of await all(a.db, 'contentCategories')) {
      expectIn(categories, [category.parentCategoryId]);
      expectIn(pages, [category.pageId]);
      expectIn(categoryTypes, [category.typeId]);
    }
    for (const m of await all(a.db, 'liveBlogMessages')) expectIn(blogs, [m.liveBlogId]);
  });

  test('articlesCount of categories and keywords counts their published articles', async () => {
    const published = await a.db.collection('articles').find({ status: 'published' }).toArray();
    for (const [name, field] of [
      ['contentCategories', 'categoryIds'],
      ['keywords', 'keywordIds'],
    ] as const) {
      for (const doc of await all(a.db, name)) {
        expect({ id: doc._id, n: doc.articlesCount }).toEqual({
          id: doc._id,
          n: published.filter((x) => x[field].includes(doc._id)).length,
        });
      }
    }
  });

  test('slugs are unique and ids follow the id alphabet', async () => {
    for (const name of ['articles', 'contentCategories', 'keywords']) {
      const docs = await all(a.db, name);
      expect(new Set(docs.map((d) => d.slug)).size).toBe(docs.length);
    }
    for (const name of COLLECTIONS) {
      for (const d of await all(a.db, name)) expect(String(d._id)).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);
    }
    for (const ch of await all(a.db, 'channels')) expect(String(ch._id)).toMatch(/^[0-9]{1,18}$/);
  });

  test('every article has a headline of its own, as the stories of an archive do', async () => {
    const titles = (await all(a.db, 'articles')).map((d) => String(d.title));
    expect(titles.length).toBeGreaterThan(50);
    expect(new Set(titles).size).toBe(titles.length);
    // At a million, what search lists as distinct stories: a repeat is a rare accident.
    const faker = new Faker({ locale: [en, base], seed: 7 });
    const ctx = { seed: 7, pools: buildPools(faker, 7, { articles: 1_000_000 }) } as GenContext;
    const many = Array.from({ length: 200_000 }, (_, i) => articleTitle(ctx, i * 5));
    expect(many.length - new Set(many).size).toBeLessThan(20);
  });

  test('statuses are varied: mostly published, some of every other state', async () => {
    const statuses = new Set((await all(a.db, 'articles')).map((d) => d.status));
    expect(statuses.has('published')).toBe(true);
    const demo = await Promise.all(
      ['draft', 'scheduled', 'archived'].map((s) => a.db.collection('articles').countDocuments({ status: s })),
    );
    expect(demo.reduce((x, y) => x + y, 0)).toBeGreaterThan(0);
  });
});

describe('alive whenever seeded: dates follow the moment of seeding', () => {
  const at = async (db: Db, now: number) => {
    const polls = await all(db, 'polls');
    const open = polls.filter((p) => !p.closed && (p.endDate === null || p.endDate.getTime() > now));
    const blogs = await all(db, 'liveBlogs');
    const messages = await db.collection('liveBlogMessages').find({ liveBlogId: 'live-blog-1' }).toArray();
    return { polls, open, blogs, messages };
  };

  test.each([
    ['the fixed moment', () => a, NOW],
    ['400 days later', () => later, NOW + 400 * DAY],
  ])(
    'seeded at %s: polls open and closed, poll-1 open to anyone, a live blog in progress, nothing dated after it',
    async (_name, run, now) => {
      const { db } = run();
      const { polls, open, blogs, messages } = await at(db, now);
      expect(open.map((p) => p._id)).toContain('poll-1');
      expect(polls.find((p) => String(p._id) === 'poll-1')).toMatchObject({ onlyLoggedIn: false, closed: false });
      expect(polls.length - open.length).toBeGreaterThan(0);
      expect(polls.some((p) => !p.closed && p.endDate !== null && p.endDate.getTime() <= now)).toBe(true);
      expect(polls.some((p) => p.closed && p.endDate.getTime() > now)).toBe(true);

      const live = blogs.find((bl) => String(bl._id) === 'live-blog-1')!;
      expect(live.endDate).toBeNull();
      expect(live.startDate.getTime()).toBeLessThan(now);
      const newest = Math.max(...messages.map((m) => m.timestamp.getTime()));
      expect(now - newest).toBeGreaterThan(0);
      expect(now - newest).toBeLessThan(15 * 60_000);
      for (const blog of blogs.filter((bl) => String(bl._id) !== 'live-blog-1'))
        expect(blog.endDate.getTime()).toBeLessThan(now);

      const statuses = (await all(db, 'quizzes')).map((q) => q.status);
      expect(statuses).toContain('open');
      expect(statuses).toContain('closed');
      for (const name of ['articles', 'issues']) {
        const dates = (await all(db, name))
          .flatMap((d) => [d.firstPublishedDate, d.lastUpdateDate, d.date, d.timestamp])
          .filter(Boolean);
        expect(Math.max(...dates.map((d: Date) => d.getTime()))).toBeLessThanOrEqual(now + 6 * 3_600_000);
      }
    },
  );

  test('the same seed at another moment shifts the dates, not the content', async () => {
    const [x, y] = [await all(a.db, 'articles'), await all(later.db, 'articles')];
    expect(y.map((d) => d.title)).toEqual(x.map((d) => d.title));
    expect(y[0].lastUpdateDate.getTime() - x[0].lastUpdateDate.getTime()).toBe(400 * DAY);
  });
});
