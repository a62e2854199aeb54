// GET /cms/page/{id}/issues assembled from each issue's ready representation (src/cache/ready-parts.ts): with the
// response cache off, an answer made from kept parts is byte for byte the answer of a process that keeps none; a
// change to anything an issue shows (the issue, an article, a poll, a live blog's messages, a category, an article
// leaving, a premium live blog opened by an article the issue does not show, a poll's end date passing) reaches
// the next answers; and a signed-in or preview reader still gets what is theirs alone.
import { ensureBuilt } from '../helpers/built.js';
import type { Child } from '../helpers/child.js';
import { spawnGateway } from '../helpers/gateway.js';
import { startMonitoredService } from '../helpers/monitored.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { editorToken } from '../live/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';

/** How long a change may take to reach the answers (the parts' change stream). */
const DEADLINE_MS = 3_000;

const { fixture } = contentGraph({ issues: 3, articlesPerIssue: 2 });
// A live blog only a premium article shows carries: closed to anonymous readers until an open article carrying it
// is published, one that no issue shows.
const premium = fixture.articles!.find((a) => a._id === 'g-a-3-1')!;
Object.assign(premium, { premium: true, free: false, accessControlEnabled: true, previewLimit: 4 });
premium.elements = { ...premium.elements, liveBlogIds: ['g-lb-1', 'g-lb-premium'] };
fixture.articles!.push(
  f.article('g-outside', {
    status: 'draft',
    firstPublishedDate: null,
    elements: { liveBlogIds: ['g-lb-premium'], pollIds: [], quizIds: [], videoPlatformVideoIds: [] },
  }),
);
fixture.liveBlogs!.push(f.liveBlog('g-lb-premium', 2));
fixture.liveBlogMessages!.push(f.message('g-lb-premium', 1), f.message('g-lb-premium', 2));
// A draft article in an issue's contents and a draft issue, seen by a preview only.
const second = fixture.issues!.find((i) => i._id === 'g-issue-2')!;
second.contents = [{ categoryId: 'g-cat-a', articleIds: ['g-a-2-1', 'g-a-2-2', 'g-a-2-draft'] }];
fixture.articles!.push(f.article('g-a-2-draft', { status: 'draft', firstPublishedDate: null }));
fixture.issues!.push(
  f.issue('g-issue-draft', 'g-page', {
    status: 'draft',
    issueNumber: 9,
    date: f.day(40),
    contents: [{ categoryId: 'g-cat-a', articleIds: ['g-a-1-1'] }],
  }),
);

let svc: TestService;
let reference: Child;
let referenceUrl: string;
let editor: IssuedTokens;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService({ beforeStart: (store) => f.insert(store.db, fixture) });
  ({ child: reference, url: referenceUrl } = await spawnGateway(svc.db.databaseName, {
    RESPONSE_CACHE_MB: '0',
    READY_PARTS_MB: '0',
  }));
  editor = await editorToken(svc);
}, 120_000);
afterAll(async () => {
  reference?.proc.kill('SIGTERM');
  await reference?.exited;
  await svc?.close();
});

const QUERIES = ['', '?limit=1', '?limit=2', '?page=2&limit=1', '?page=2&limit=2', '?page=9'];

async function bytes(base: string, query = '', headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${base}/cms/page/g-page/issues${query}`, {
    headers: { 'accept-encoding': 'identity', ...headers },
  });
  expect(res.status).toBe(200);
  return res.text();
}

type Body = { issues: any[] };
const body = async (base: string, headers: Record<string, string> = {}): Promise<Body> =>
  JSON.parse(await bytes(base, '', headers)) as Body;
const issueOf = (answer: Body, id: string): any => answer.issues.find((i) => i.id === id);
const articleOf = (issue: any, id: string): any => issue?.contents['g-cat-a']?.articles.find((a: any) => a.id === id);
const blogOf = (article: any, id: string): any => article?.elements.liveBlogs.find((b: any) => b.id === id);

/** Asks until `ask` says `expected` or the deadline passes; returns the last answer. */
async function untilSeen<T>(ask: () => Promise<T>, expected: T): Promise<T> {
  const end = Date.now() + DEADLINE_MS;
  let seen = await ask();
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await ask();
  }
  return seen;
}

/** Asked twice, so that the second answer is assembled from the parts the first kept. */
async function warm(): Promise<void> {
  for (let i = 0; i < 2; i++) await bytes(svc.url);
}

/** The process keeping parts comes to answer `expected`, and the one keeping none agrees. */
async function expectSeen<T>(ask: (answer: Body) => T, expected: T): Promise<void> {
  expect(await untilSeen(async () => ask(await body(svc.url)), expected)).toEqual(expected);
  expect(ask(await body(referenceUrl))).toEqual(expected);
}

test('an answer assembled from kept parts is the bytes of one that keeps none, for every page', async () => {
  for (const query of QUERIES) {
    const fresh = await bytes(referenceUrl, query);
    // The first answer keeps the parts, the second is assembled from them.
    for (let i = 0; i < 2; i++) expect(await bytes(svc.url, query)).toBe(fresh);
  }
  expect((JSON.parse(await bytes(svc.url)) as Body).issues.map((i) => i.id)).toEqual([
    'g-issue-3',
    'g-issue-2',
    'g-issue-1',
  ]);
});

test('a page whose issues are all kept reads only the page, its issues and their count', async () => {
  const monitored = await startMonitoredService({
    prefix: 'iready',
    beforeStart: (store) => f.insert(store.db, { ...fixture, polls: [...fixture.polls!, f.poll('g-poll-other')] }),
  });
  // Another poll is voted on all the while: a change to what no issue shows does not stop parts being kept.
  let voting = true;
  const votes = (async () => {
    while (voting)
      await monitored.db
        .collection('polls')
        .updateOne({ _id: 'g-poll-other' as never }, { $inc: { 'choices.0.votes': 1 } });
  })();
  try {
    await new Promise((r) => setTimeout(r, 500));
    const sent = async () => {
      monitored.commands.length = 0;
      const text = await bytes(monitored.url, '?limit=2');
      const commands = monitored.commands.map((c) => `${c.commandName}:${String(c.command[c.commandName])}`);
      // What the request read: the votes, and the webhook producer saving its stream position as they come, are
      // written meanwhile by others.
      return { text, commands: commands.filter((c) => /^(find|aggregate|count|distinct|getMore):/.test(c)) };
    };
    const first = await sent();
    expect(first.commands).toEqual(expect.arrayContaining(['find:articles', 'find:liveBlogMessages']));
    const again = await sent();
    expect(again.text).toBe(first.text);
    expect(again.commands.filter((c) => !/:(pages|issues)$/.test(c))).toEqual([]);
  } finally {
    voting = false;
    await votes;
    await monitored.close();
  }
});

test("an issue's new title shows in the next answer", async () => {
  await warm();
  await svc.db.collection('issues').updateOne({ _id: 'g-issue-2' as never }, { $set: { title: 'Retitled issue' } });
  await expectSeen((answer) => issueOf(answer, 'g-issue-2')?.title, 'Retitled issue');
});

test("an article's new title shows wherever the issue shows it", async () => {
  await warm();
  await svc.db.collection('articles').updateOne({ _id: 'g-a-2-1' as never }, { $set: { title: 'Retitled article' } });
  await expectSeen(
    (answer) => {
      const issue = issueOf(answer, 'g-issue-2');
      return [
        articleOf(issue, 'g-a-2-1')?.title,
        issue?.frontPage.articles[0].title,
        issue?.repeatedArticleGroups[0].articles[0].title,
      ];
    },
    ['Retitled article', 'Retitled article', 'Retitled article'],
  );
});

test('an article unpublished leaves the contents and sections of its issue', async () => {
  await warm();
  await svc.db.collection('articles').updateOne({ _id: 'g-a-1-2' as never }, { $set: { status: 'draft' } });
  await expectSeen(
    (answer) => {
      const issue = issueOf(answer, 'g-issue-1');
      return [
        issue?.contents['g-cat-a'].articles.map((a: any) => a.id),
        issue?.dynamicSections.latest.articles.map((a: any) => a.id),
      ];
    },
    [['g-a-1-1'], ['g-a-1-1']],
  );
});

test("a category's new name shows in the contents, the articles and as a parent", async () => {
  await warm();
  await svc.db.collection('contentCategories').updateOne({ _id: 'g-cat-b' as never }, { $set: { name: 'Renamed' } });
  await expectSeen(
    (answer) => {
      const issue = issueOf(answer, 'g-issue-3');
      const article = articleOf(issue, 'g-a-3-2');
      return [issue?.contents['g-cat-a'].category.parent.name, article?.categories[1].name];
    },
    ['Renamed', 'Renamed'],
  );
});

test('everything else an issue shows, renamed, shows in the next answer', async () => {
  const shown = (answer: Body) => {
    const issue = issueOf(answer, 'g-issue-1');
    const article = articleOf(issue, 'g-a-1-1');
    return {
      authors: issue?.authors[0].name,
      keywords: article?.keywords[0].name,
      videos: article?.attachments[0].video.title,
      quizzes: article?.elements.quizzes[0].name,
      sponsors: article?.sponsor.name,
      contentTypes: article?.contentType.name,
      categoryTypes: article?.category.type.name,
      channels: issue?.channel.name,
      liveBlogs: blogOf(article, 'g-lb-1')?.title,
    };
  };
  const renames: Array<[keyof ReturnType<typeof shown>, string, string]> = [
    ['authors', 'g-au-1', 'name'],
    ['keywords', 'g-kw-1', 'name'],
    ['videos', 'g-vid-1', 'title'],
    ['quizzes', 'g-quiz-1', 'name'],
    ['sponsors', 'g-sp-1', 'name'],
    ['contentTypes', 'g-ct-1', 'name'],
    ['categoryTypes', 'g-type-1', 'name'],
    ['channels', '7', 'name'],
    ['liveBlogs', 'g-lb-1', 'title'],
  ];
  // One at a time, each after the parts were kept again: a write evicts what shows the document it changed.
  for (const [collection, id, field] of renames) {
    await warm();
    await svc.db.collection(collection).updateOne({ _id: id as never }, { $set: { [field]: `New ${collection}` } });
    await expectSeen((answer) => shown(answer)[collection], `New ${collection}`);
  }
});

test("a vote and a poll's new question show in the next answer", async () => {
  await warm();
  const poll = (answer: Body) => articleOf(issueOf(answer, 'g-issue-1'), 'g-a-1-1')?.elements.polls[0];
  const before = poll(await body(svc.url));
  const voter = await tokenFor(svc, { scopes: ['openid'] });
  const voted = await svc.gql(
    'mutation { voteInPoll(pollId: "g-poll-1", choiceId: "no") { votes } }',
    {},
    { ...bearer(voter.accessToken), 'apollo-require-preflight': 'true' },
  );
  expect(voted.body.errors).toBeUndefined();
  await expectSeen((answer) => poll(answer)?.votes, before.votes + 1);

  await svc.db.collection('polls').updateOne({ _id: 'g-poll-1' as never }, { $set: { question: 'Asked again?' } });
  await expectSeen((answer) => poll(answer)?.question, 'Asked again?');
});

test("a message posted to a live blog leads the blog's preview", async () => {
  await warm();
  const posted = await svc.gql(
    'mutation { postLiveBlogMessage(liveBlogId: "g-lb-1", input: { text: "Just in" }) { id } }',
    {},
    { ...bearer(editor.accessToken), 'apollo-require-preflight': 'true' },
  );
  expect(posted.body.errors).toBeUndefined();
  const newest = (answer: Body) =>
    blogOf(articleOf(issueOf(answer, 'g-issue-2'), 'g-a-2-2'), 'g-lb-1')?.previewMessages.map((m: any) => m.text);
  await expectSeen((answer) => newest(answer)?.[0], 'Just in');

  // Written around the gateway, to a message alone: the blog itself is unchanged.
  await warm();
  await svc.db.collection('liveBlogMessages').updateOne({ _id: 'g-lb-1-m7' as never }, { $set: { text: 'Edited' } });
  await expectSeen((answer) => newest(answer)?.[1], 'Edited');
});

test('a premium live blog opens when an article no issue shows publishes it openly', async () => {
  await warm();
  const messages = (answer: Body) =>
    blogOf(articleOf(issueOf(answer, 'g-issue-3'), 'g-a-3-1'), 'g-lb-premium')?.previewMessages.length;
  expect(messages(await body(svc.url))).toBe(0);
  await svc.db.collection('articles').updateOne({ _id: 'g-outside' as never }, { $set: { status: 'published' } });
  await expectSeen(messages, 2);
});

test('a poll reads closed once its end date passes, with no write', async () => {
  // Written first (which evicts the parts showing the poll), then kept with the poll open.
  const endDate = new Date(Date.now() + 3_000);
  await svc.db.collection('polls').updateOne({ _id: 'g-poll-1' as never }, { $set: { endDate } });
  const closed = async () => articleOf(issueOf(await body(svc.url), 'g-issue-1'), 'g-a-1-1')?.elements.polls[0].closed;
  expect(await untilSeen(closed, false)).toBe(false);
  expect(await closed()).toBe(false);
  await new Promise((r) => setTimeout(r, Math.max(0, endDate.getTime() - Date.now()) + 100));
  expect(await closed()).toBe(true);
  expect(articleOf(issueOf(await body(referenceUrl), 'g-issue-1'), 'g-a-1-1')?.elements.polls[0].closed).toBe(true);
});

test("a signed-in reader gets their access and their vote, not the anonymous reader's kept parts", async () => {
  await warm();
  const subscriber = await tokenFor(svc, {
    scopes: ['openid'],
    entitlements: [{ group: 'subscription', validUntil: null }],
  });
  await svc.db.collection('pollVotes').insertOne({
    _id: `vote-${subscriber.customerId}` as never,
    pollId: 'g-poll-1',
    customerId: subscriber.customerId,
    choiceId: 'yes',
    votedAt: new Date(),
  });
  const theirs = (answer: Body) => {
    const article = articleOf(issueOf(answer, 'g-issue-3'), 'g-a-3-1');
    const poll = article?.elements.polls[0];
    return [article?.accessAllowed, article?.body, poll?.voted, poll?.votedChoice];
  };
  const stored = fixture.articles!.find((a) => a._id === 'g-a-3-1')!;
  for (let i = 0; i < 2; i++) {
    expect(theirs(await body(svc.url, bearer(subscriber.accessToken)))).toEqual([true, stored.body, true, 'yes']);
    expect(theirs(await body(svc.url))).toEqual([false, null, false, null]);
  }
});

test('a preview sees the draft issue and draft article; anonymous readers before and after it do not', async () => {
  await warm();
  const drafts = (answer: Body) => [
    answer.issues.some((i) => i.id === 'g-issue-draft'),
    articleOf(issueOf(answer, 'g-issue-2'), 'g-a-2-draft') !== undefined,
  ];
  const preview = { ...bearer(editor.accessToken), preview: 'true' };
  expect(drafts(await body(svc.url))).toEqual([false, false]);
  for (let i = 0; i < 2; i++) expect(drafts(await body(svc.url, preview))).toEqual([true, true]);
  expect(drafts(await body(svc.url))).toEqual([false, false]);
});

test('after the changes, kept parts and fresh answers are still the same bytes', async () => {
  for (const query of QUERIES) {
    const fresh = await bytes(referenceUrl, query);
    for (let i = 0; i < 2; i++) expect(await bytes(svc.url, query)).toBe(fresh);
  }
});
