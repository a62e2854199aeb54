// A whole content graph of any size: one page with `issues` issues of `articlesPerIssue` articles,
// every article pointing at everything an article can point at (so every resolver runs).
import * as f from './fixtures.js';

export interface GraphIds {
  pageId: string;
  issueIds: string[];
  articleIds: string[][];
}

export function contentGraph(opts: { issues: number; articlesPerIssue: number; prefix?: string; channelId?: string }): {
  fixture: f.Fixture;
  ids: GraphIds;
} {
  const p = opts.prefix ?? 'g-';
  const channelId = opts.channelId ?? '7';
  const pageId = `${p}page`;
  const issues = [];
  const articles = [];
  const articleIds: string[][] = [];
  for (let i = 1; i <= opts.issues; i++) {
    const ids = Array.from({ length: opts.articlesPerIssue }, (_, j) => `${p}a-${i}-${j + 1}`);
    articleIds.push(ids);
    for (const [j, id] of ids.entries()) {
      articles.push(
        f.article(id, {
          firstPublishedDate: new Date(f.day(i).getTime() + j * 60_000),
          categoryIds: [`${p}cat-a`, `${p}cat-b`],
          categoryId: `${p}cat-a`,
          authorIds: [`${p}au-1`, `${p}au-2`],
          authorId: `${p}au-1`,
          sponsorId: `${p}sp-1`,
          contentTypeId: `${p}ct-1`,
          keywordIds: [`${p}kw-1`, `${p}kw-2`],
          attachments: [f.attachment(`${id}-img`, { videoId: `${p}vid-1` })],
          inlineAttachments: [f.attachment(`${id}-inline`)],
          files: [
            f.attachment(`${id}-file`, { type: 'file', width: null, height: null, transforms: [], additionalUrls: [] }),
          ],
          videos: [f.attachment(`${id}-vid`, { type: 'video', videoId: `${p}vid-1` })],
          elements: {
            liveBlogIds: [`${p}lb-1`],
            pollIds: [`${p}poll-1`],
            quizIds: [`${p}quiz-1`],
            videoPlatformVideoIds: [`yt-${id}`],
          },
        }),
      );
    }
    issues.push(
      f.issue(`${p}issue-${i}`, pageId, {
        date: f.day(i),
        issueNumber: i,
        contents: [{ categoryId: `${p}cat-a`, articleIds: ids }],
        dynamicSections: [
          {
            name: 'latest',
            displayName: 'Latest',
            limit: 3,
            direction: 'append',
            type: 'articles',
            articleIds: ids,
            linkables: [],
          },
          {
            name: 'links',
            displayName: 'Links',
            limit: 2,
            direction: 'append-unsorted',
            type: 'linkables',
            articleIds: [],
            linkables: [
              { name: 'Zeta', url: 'https://example.com/z', objectType: 'external' },
              { name: 'Alpha', url: 'https://example.com/a', objectType: 'external' },
              { name: 'Mid', url: 'https://example.com/m', objectType: 'external' },
            ],
          },
        ],
        repeatedArticleGroups: [{ name: 'Editorials', articleIds: ids.slice(0, 1) }],
        frontPage: { categoryId: `${p}cat-a`, articleIds: ids.slice(0, 1) },
        authorIds: [`${p}au-1`],
        channelId,
        pollId: `${p}poll-1`,
      }),
    );
  }
  const fixture: f.Fixture = {
    pages: [f.page(pageId)],
    issues,
    articles,
    contentCategories: [
      f.category(`${p}cat-a`, {
        typeId: `${p}type-1`,
        parentCategoryId: `${p}cat-b`,
        pageId,
        articlesCount: articles.length,
      }),
      f.category(`${p}cat-b`, { order: 1, articlesCount: articles.length }),
    ],
    categoryTypes: [f.categoryType(`${p}type-1`)],
    contentTypes: [f.contentType(`${p}ct-1`)],
    sponsors: [f.sponsor(`${p}sp-1`)],
    authors: [f.author(`${p}au-1`, { replacedById: `${p}au-2` }), f.author(`${p}au-2`)],
    keywords: [
      f.keyword(`${p}kw-1`, { replacedById: `${p}kw-2`, articlesCount: articles.length }),
      f.keyword(`${p}kw-2`, { articlesCount: articles.length }),
    ],
    videos: [f.video(`${p}vid-1`)],
    liveBlogs: [f.liveBlog(`${p}lb-1`, 7)],
    liveBlogMessages: Array.from({ length: 7 }, (_, k) => f.message(`${p}lb-1`, k + 1)),
    polls: [f.poll(`${p}poll-1`)],
    quizzes: [f.quiz(`${p}quiz-1`)],
    channels: [f.channel(channelId)],
  };
  return { fixture, ids: { pageId, issueIds: issues.map((x) => x._id), articleIds } };
}
