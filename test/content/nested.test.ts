// Every nested content type, reached through the graph, with values checked against the stored documents.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';
import { contentGraph } from './graph.fixture.js';

let svc: TestService;
const { fixture } = contentGraph({ issues: 1, articlesPerIssue: 3 });
// What readers must not see, mixed into the graph: an inactive category's group, a draft article,
// a video still processing, a draft quiz.
const issueDoc = fixture.issues![0]!;
issueDoc.contents.push({ categoryId: 'cat-off', articleIds: ['g-a-1-1'] });
issueDoc.contents[0]!.articleIds.splice(1, 0, 'a-draft');
fixture.contentCategories!.push(f.category('cat-off', { status: 'inactive' }));
fixture.articles!.push(f.article('a-draft', { status: 'draft' }));
fixture.videos!.push(f.video('vid-processing', { status: 'processing' }));
fixture.quizzes!.push(f.quiz('quiz-draft', { status: 'draft' }));
const a1 = fixture.articles![0]!;
a1.attachments.push(f.attachment('att-processing', { videoId: 'vid-processing' }));
a1.elements.quizIds.push('quiz-draft');

beforeAll(async () => {
  svc = await startTestService();
  await f.insert(svc.db, fixture);
});
afterAll(() => svc.close());

async function data(query: string): Promise<any> {
  const res = await svc.gql(query);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

describe('Issue', () => {
  test('contents, dynamic sections, repeated groups, front page, authors, channel, poll, page', async () => {
    const { issue } = await data(`{ issue(id: "g-issue-1") {
      contents { categoryId category { id name } articles { id } }
      dynamicSections { name displayName limit direction type articles { id } linkables { name url objectType } }
      latest: dynamicSection(name: "latest") { name }
      missing: dynamicSection(name: "nope") { name }
      repeatedArticleGroups { name articles { id } }
      frontPage { categoryId category { id } articles { id } }
      authors { id } channelId channel { id name } pollId poll { id question } page { id name }
    } }`);
    expect(issue.contents).toEqual([
      {
        categoryId: 'g-cat-a',
        category: { id: 'g-cat-a', name: 'Category g-cat-a' },
        articles: [{ id: 'g-a-1-1' }, { id: 'g-a-1-2' }, { id: 'g-a-1-3' }],
      },
    ]);
    // APPEND: newest first (a-1-3 was published last), limit 3 of 3. APPEND_UNSORTED keeps the editors' order, limit 2.
    expect(issue.dynamicSections).toEqual([
      {
        name: 'latest',
        displayName: 'Latest',
        limit: 3,
        direction: 'APPEND',
        type: 'ARTICLES',
        articles: [{ id: 'g-a-1-3' }, { id: 'g-a-1-2' }, { id: 'g-a-1-1' }],
        linkables: [],
      },
      {
        name: 'links',
        displayName: 'Links',
        limit: 2,
        direction: 'APPEND_UNSORTED',
        type: 'LINKABLES',
        articles: [],
        linkables: [
          { name: 'Zeta', url: 'https://example.com/z', objectType: 'external' },
          { name: 'Alpha', url: 'https://example.com/a', objectType: 'external' },
        ],
      },
    ]);
    expect(issue.latest).toEqual({ name: 'latest' });
    expect(issue.missing).toBeNull();
    expect(issue.repeatedArticleGroups).toEqual([{ name: 'Editorials', articles: [{ id: 'g-a-1-1' }] }]);
    expect(issue.frontPage).toEqual({
      categoryId: 'g-cat-a',
      category: { id: 'g-cat-a' },
      articles: [{ id: 'g-a-1-1' }],
    });
    expect(issue.authors).toEqual([{ id: 'g-au-1' }]);
    expect(issue.channel).toEqual({ id: '7', name: 'Channel 7' });
    expect(issue.poll).toEqual({ id: 'g-poll-1', question: 'Question g-poll-1?' });
    expect(issue.page).toEqual({ id: 'g-page', name: 'Page g-page' });
  });

  test('a section limit below the number of articles cuts the list; APPEND sorts before cutting', async () => {
    await svc.db
      .collection('issues')
      .updateOne({ _id: 'g-issue-1' as never }, { $set: { 'dynamicSections.0.limit': 1 } });
    const { issue } = await data(`{ issue(id: "g-issue-1") { dynamicSection(name: "latest") { articles { id } } } }`);
    expect(issue.dynamicSection.articles).toEqual([{ id: 'g-a-1-3' }]);
    await svc.db
      .collection('issues')
      .updateOne({ _id: 'g-issue-1' as never }, { $set: { 'dynamicSections.0.limit': 3 } });
  });
});

describe('Article', () => {
  test('scalar and embedded fields come from the stored document', async () => {
    const { article } = await data(`{ article(id: "g-a-1-2") {
      objectClassName id signature absoluteUrl shortUrl slug viewsCount commentsCount averageRatingByCustomers totalRatingsCount
      previewLimit excludedFromSearchEngine title firstPublishedDate lastUpdateDate contentLength summary introduction premium free
      credits timeToRead accessControlEnabled accessAllowed accessGroups status cached categoryId authorId sponsorId contentTypeId body preview
      seo { searchTitle searchDescription socialTitle socialDescription socialImageUrl }
    } }`);
    const stored = fixture.articles![1]!;
    expect(article).toEqual({
      objectClassName: 'Article',
      id: 'g-a-1-2',
      signature: stored.signature,
      absoluteUrl: stored.absoluteUrl,
      shortUrl: stored.shortUrl,
      slug: stored.slug,
      viewsCount: 42,
      commentsCount: 7,
      averageRatingByCustomers: 4.5,
      totalRatingsCount: 12,
      previewLimit: 10,
      excludedFromSearchEngine: false,
      title: stored.title,
      firstPublishedDate: stored.firstPublishedDate!.toISOString(),
      lastUpdateDate: stored.lastUpdateDate.toISOString(),
      contentLength: 23,
      summary: stored.summary,
      introduction: stored.introduction,
      premium: false,
      free: true,
      credits: 'Photo: Agency',
      timeToRead: 180,
      accessControlEnabled: false,
      accessAllowed: true,
      accessGroups: ['subscription'],
      status: 'PUBLISHED',
      cached: true,
      categoryId: 'g-cat-a',
      authorId: 'g-au-1',
      sponsorId: 'g-sp-1',
      contentTypeId: 'g-ct-1',
      body: stored.body,
      preview: stored.preview,
      seo: stored.seo,
    });
  });

  test('content type, categories, category, authors, author, sponsor, keywords', async () => {
    const { article } = await data(`{ article(id: "g-a-1-1") {
      contentType { id name slug editor } categories { id } category { id name }
      authors { id name } author { id } sponsor { id url name imageUrl } keywords { id name }
    } }`);
    expect(article).toEqual({
      contentType: { id: 'g-ct-1', name: 'Content type g-ct-1', slug: 'ct-g-ct-1', editor: 'blocks' },
      categories: [{ id: 'g-cat-a' }, { id: 'g-cat-b' }],
      category: { id: 'g-cat-a', name: 'Category g-cat-a' },
      authors: [
        { id: 'g-au-1', name: 'Author g-au-1' },
        { id: 'g-au-2', name: 'Author g-au-2' },
      ],
      author: { id: 'g-au-1' },
      sponsor: { ...f.sponsor('g-sp-1'), _id: undefined, id: 'g-sp-1' },
      keywords: [
        { id: 'g-kw-1', name: 'Keyword g-kw-1' },
        { id: 'g-kw-2', name: 'Keyword g-kw-2' },
      ],
    });
  });

  test('attachments, inline attachments, files and videos, with transforms, additional urls and ready videos only', async () => {
    const { article } = await data(`{ article(id: "g-a-1-1") {
      attachments { id name description type publicUrl width height focalPoint transforms { width height url }
        additionalUrls { transform url } searchTitle searchDescription socialTitle videoId
        video { id title url duration episodeNumber status showId showName showUrl brief thumbnailUrl thumbnailPlayUrl filename publishDate views publish
          formats { format filename cdnPath mimeType duration } } }
      inlineAttachments { id } files { id type width transforms { url } } videos { id type video { id } }
    } }`);
    const stored = a1.attachments[0]!;
    const v = f.video('g-vid-1');
    expect(article.attachments[0]).toEqual({
      id: stored.id,
      name: stored.name,
      description: stored.description,
      type: 'IMAGE',
      publicUrl: stored.publicUrl,
      width: 1600,
      height: 900,
      focalPoint: '40% 60%',
      transforms: stored.transforms,
      additionalUrls: stored.additionalUrls,
      searchTitle: stored.searchTitle,
      searchDescription: stored.searchDescription,
      socialTitle: stored.socialTitle,
      videoId: 'g-vid-1',
      video: { ...v, _id: undefined, id: 'g-vid-1', status: 'READY', publishDate: v.publishDate!.toISOString() },
    });
    // The attachment whose video is still processing has no video.
    expect(article.attachments[1]).toMatchObject({ id: 'att-processing', videoId: 'vid-processing', video: null });
    expect(article.inlineAttachments).toEqual([{ id: 'g-a-1-1-inline' }]);
    expect(article.files).toEqual([{ id: 'g-a-1-1-file', type: 'FILE', width: null, transforms: [] }]);
    expect(article.videos).toEqual([{ id: 'g-a-1-1-vid', type: 'VIDEO', video: { id: 'g-vid-1' } }]);
  });

  test('elements: live blogs with the newest messages, polls with results, quizzes with questions, answers and results', async () => {
    const { article } = await data(`{ article(id: "g-a-1-1") { elements {
      videoPlatformVideoIds
      liveBlogs { id title startDate endDate websocketRoomName previewMessages { id timestamp text title minute additionalMinute typeId imageLetter highlight htmlContent userDisplayName userThumbnailUrl } }
      polls { id timestamp question slug votes choices { id text votes } results { choiceId votes percentage } category { id name image } message onlyLoggedIn endDate closed voted votedChoice }
      quizzes { id name timestamp image coverPicture description share template allowForm introductionMessage thankyouMessage terms status
        questions { id title resultText image choices { id text letter image correct points votes } }
        results { id result image letter resultText share twitterShare minimum maximum votes } }
    } } }`);
    const { elements } = article;
    expect(elements.videoPlatformVideoIds).toEqual(['yt-g-a-1-1']);
    const blog = elements.liveBlogs[0];
    expect(blog).toMatchObject({
      id: 'g-lb-1',
      title: 'Live g-lb-1',
      startDate: f.day(1).toISOString(),
      endDate: f.day(2).toISOString(),
      websocketRoomName: 'room-g-lb-1',
    });
    expect(blog.previewMessages.map((m: any) => m.id)).toEqual([
      'g-lb-1-m7',
      'g-lb-1-m6',
      'g-lb-1-m5',
      'g-lb-1-m4',
      'g-lb-1-m3',
    ]);
    const m3 = f.message('g-lb-1', 3);
    expect(blog.previewMessages[4]).toEqual({
      id: m3._id,
      timestamp: m3.timestamp.toISOString(),
      text: 'Message 3',
      title: 'T3',
      minute: 3,
      additionalMinute: 2,
      typeId: 'goal',
      imageLetter: 'G',
      highlight: false,
      htmlContent: '<b>3</b>',
      userDisplayName: 'Reporter',
      userThumbnailUrl: 'https://img.example.com/rep.jpg',
    });
    expect(elements.polls).toEqual([
      {
        id: 'g-poll-1',
        timestamp: f.day(3).toISOString(),
        question: 'Question g-poll-1?',
        slug: 'poll-g-poll-1',
        votes: 4,
        choices: [
          { id: 'PollChoice:g-poll-1:yes', text: 'Yes', votes: 3 },
          { id: 'PollChoice:g-poll-1:no', text: 'No', votes: 1 },
        ],
        results: [
          { choiceId: 'PollChoice:g-poll-1:yes', votes: 3, percentage: 75 },
          { choiceId: 'PollChoice:g-poll-1:no', votes: 1, percentage: 25 },
        ],
        category: { id: 'pc-1', name: 'Politics', image: 'https://img.example.com/pc-1.png' },
        message: 'Thanks for voting',
        onlyLoggedIn: false,
        endDate: f.POLL_END.toISOString(),
        closed: false,
        voted: false,
        votedChoice: null,
      },
    ]);
    const q = f.quiz('g-quiz-1');
    // Questions, answers and results have ids of their own across the graph: `<Type>:<quiz id>:<keys>`.
    expect(elements.quizzes).toEqual([
      {
        ...q,
        _id: undefined,
        id: 'g-quiz-1',
        timestamp: q.timestamp.toISOString(),
        status: 'OPEN',
        questions: q.questions.map((question) => ({
          ...question,
          id: `QuizQuestion:g-quiz-1:${question.id}`,
          choices: question.choices.map((a) => ({ ...a, id: `QuizAnswer:g-quiz-1:${question.id}:${a.id}` })),
        })),
        results: q.results.map((r) => ({ ...r, id: `QuizResult:g-quiz-1:${r.id}` })),
      },
    ]);
  });
});

describe('ContentCategory, Author, Keyword, Channel', () => {
  test('category type, parent, page, articlesCount and articles', async () => {
    const { contentCategory } = await data(`{ contentCategory(id: "g-cat-a") {
      id name signature slug typeId type { id name slug } parentCategoryId parent { id name } imageUrl coverUrl logoUrl paid objectClassName
      absoluteUrl cssCode templateName tagline linkParameter description metaDescription order pageId page { id } allowComments accessType status
      articlesCount articles(first: 2) { totalCount edges { node { id } } pageInfo { hasNextPage } }
    } }`);
    const c = f.category('g-cat-a', { typeId: 'g-type-1', parentCategoryId: 'g-cat-b', pageId: 'g-page' });
    expect(contentCategory).toEqual({
      ...c,
      _id: undefined,
      id: 'g-cat-a',
      status: 'ACTIVE',
      type: { id: 'g-type-1', name: 'Type g-type-1', slug: 'type-g-type-1' },
      parent: { id: 'g-cat-b', name: 'Category g-cat-b' },
      page: { id: 'g-page' },
      articlesCount: 3,
      articles: {
        totalCount: 3,
        edges: [{ node: { id: 'g-a-1-3' } }, { node: { id: 'g-a-1-2' } }],
        pageInfo: { hasNextPage: true },
      },
    });
  });

  test('author fields, image transforms, replacedBy and articles', async () => {
    const { author } = await data(`{ author(id: "g-au-1") {
      id url name imageUrl imageTransforms { width height url } coverImageUrl email department slug shortBiography fullDescription latinName
      country legacySocialProfile microblogHandle socialNetworkUsername professionalNetworkProfile photoSharingHandle className replacedById source
      replacedBy { id name } articles(first: 1) { totalCount edges { node { id } } }
    } }`);
    const a = f.author('g-au-1', { replacedById: 'g-au-2' });
    expect(author).toEqual({
      ...a,
      _id: undefined,
      id: 'g-au-1',
      source: null,
      replacedBy: { id: 'g-au-2', name: 'Author g-au-2' },
      articles: { totalCount: 3, edges: [{ node: { id: 'g-a-1-3' } }] },
    });
  });

  test('keyword translations, translation lookup, replacedBy, articlesCount and articles', async () => {
    const { keyword } = await data(`{ keyword(id: "g-kw-1") {
      id name url slug description replacedById displayName collectionId imageUrl
      translations { language name displayName description slug } de: translation(language: "de") { name } fr: translation(language: "fr") { name }
      replacedBy { id } articlesCount articles(first: 5) { edges { node { id } } }
    } }`);
    const k = f.keyword('g-kw-1', { replacedById: 'g-kw-2' });
    expect(keyword).toEqual({
      ...k,
      _id: undefined,
      id: 'g-kw-1',
      de: { name: 'Stichwort g-kw-1' },
      fr: null,
      replacedBy: { id: 'g-kw-2' },
      articlesCount: 3,
      articles: { edges: [{ node: { id: 'g-a-1-3' } }, { node: { id: 'g-a-1-2' } }, { node: { id: 'g-a-1-1' } }] },
    });
  });

  test('channel configuration: keyed linkable lists and dynamic sections', async () => {
    const { channel } = await data(`{ channel(id: "7") { id name image description objectType configuration {
      linkables { key linkables { name url objectType } }
      dynamicSections { name displayName limit direction type linkables { name } articles { id } }
    } } }`);
    expect(channel).toEqual({
      id: '7',
      name: 'Channel 7',
      image: 'https://img.example.com/ch-7.png',
      description: 'The web site',
      objectType: 'site',
      configuration: {
        linkables: [{ key: 'menu', linkables: [{ name: 'Home', url: 'https://example.com/', objectType: 'page' }] }],
        dynamicSections: [
          {
            name: 'top',
            displayName: 'Top',
            limit: 5,
            direction: 'APPEND_UNSORTED',
            type: 'LINKABLES',
            linkables: [{ name: 'Sport' }],
            articles: [],
          },
        ],
      },
    });
  });
});
