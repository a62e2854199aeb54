// The content seeder: pages, issues, articles and everything they point at, at the run's scale.
// Same seed, same data: every document derives from (seed, kind, index) and pools drawn from the run's faker.
import type { Seeder } from './seeder.js';
import { scales } from './seeder.js';
import { makeArticle } from './content-articles.js';
import { makeChannel, makeLiveBlog, makeMessages, makePoll, makeQuiz } from './content-elements.js';
import { ArticleCounters, insertGenerated, insertList } from './content-insert.js';
import { makeIssue, makePage } from './content-issues.js';
import { makeVideo } from './content-media.js';
import { buildPools } from './content-pools.js';
import { CATEGORY_TYPES, CONTENT_TYPES, contentSizes, id, type GenContext } from './content-sizes.js';
import {
  makeAuthor,
  makeCategory,
  makeCategoryType,
  makeContentType,
  makeKeyword,
  makeSponsor,
} from './content-taxonomy.js';

/** What later seeders may use (e.g. newsletter subscriptions need channel ids). */
interface SharedContent {
  pageIds: string[];
  channelIds: string[];
  articleCount: number;
}

export const contentSeeder: Seeder = {
  name: 'content',
  async run(run) {
    const sizes = contentSizes(run.scale);
    const ctx: GenContext = {
      seed: run.seed,
      now: run.now,
      sizes,
      pools: buildPools(run.faker, run.seed, scales[run.scale]),
    };
    const counts: Record<string, number> = {};
    const range = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

    counts.categoryTypes = await insertList(run, 'categoryTypes', range(CATEGORY_TYPES.length, makeCategoryType));
    counts.contentTypes = await insertList(run, 'contentTypes', range(CONTENT_TYPES.length, makeContentType));
    counts.sponsors = await insertList(
      run,
      'sponsors',
      range(sizes.sponsors, (i) => makeSponsor(ctx, i)),
    );
    counts.pages = await insertList(
      run,
      'pages',
      range(sizes.pages, (i) => makePage(ctx, i)),
    );
    counts.channels = await insertList(
      run,
      'channels',
      range(sizes.channels, (i) => makeChannel(ctx, i)),
    );
    counts.contentCategories = await insertGenerated(run, 'contentCategories', sizes.categories, (i) =>
      makeCategory(ctx, i),
    );
    counts.authors = await insertGenerated(run, 'authors', sizes.authors, (i) => makeAuthor(ctx, i));
    counts.keywords = await insertGenerated(run, 'keywords', sizes.keywords, (i) => makeKeyword(ctx, i));
    counts.videos = await insertGenerated(run, 'videos', sizes.videos, (i) => makeVideo(ctx, i));
    const blogs = range(sizes.liveBlogs, (i) => makeLiveBlog(ctx, i));
    counts.liveBlogs = await insertList(run, 'liveBlogs', blogs);
    counts.liveBlogMessages = await insertList(
      run,
      'liveBlogMessages',
      blogs.flatMap((b, i) => makeMessages(ctx, b, i)),
    );
    counts.polls = await insertGenerated(run, 'polls', sizes.polls, (i) => makePoll(ctx, i));
    counts.quizzes = await insertGenerated(run, 'quizzes', sizes.quizzes, (i) => makeQuiz(ctx, i));
    counts.issues = await insertGenerated(run, 'issues', sizes.issues, (i) => makeIssue(ctx, i));
    const counters = new ArticleCounters();
    counts.articles = await insertGenerated(run, 'articles', sizes.articles, (i) => counters.add(makeArticle(ctx, i)));
    await counters.store(run);

    const shared: SharedContent = {
      pageIds: range(sizes.pages, (i) => id('page', i)),
      channelIds: range(sizes.channels, (i) => String(i + 1)),
      articleCount: sizes.articles,
    };
    run.shared.set('content', shared);
    return counts;
  },
};
