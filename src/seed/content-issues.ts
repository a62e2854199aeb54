// Generators of pages and issues. An issue carries the articles written for it (grouped by their
// primary category), dynamic sections, a repeated group and a front page built from the same articles.
import type { IssueDoc, PageDoc } from '../store/content/page.doc.js';
import { primaryCategory, publicationStatus, scheduledPublishAt } from './content-articles.js';
import { randFor, slugify } from './content-random.js';
import { SPAN_MS, articlesPerIssue, id, pageOfIssue, type GenContext } from './content-sizes.js';

const PAGE_NAMES = [
  'The Daily Example',
  'Example Weekend',
  'Example Business',
  'Example Sport',
  'City Example',
  'Example Science',
];

export function makePage(ctx: GenContext, i: number): PageDoc {
  const name =
    i < PAGE_NAMES.length
      ? PAGE_NAMES[i]!
      : `${PAGE_NAMES[i % PAGE_NAMES.length]} ${Math.floor(i / PAGE_NAMES.length) + 1}`;
  const slug = slugify(name);
  return {
    _id: id('page', i),
    name,
    previewUrl: `https://preview.example-news.com/${slug}`,
    publicFacingMetadata: {
      title: name,
      description: ctx.pools.sentences[i % ctx.pools.sentences.length]!,
      language: 'en',
      imageUrl: `https://img.example-news.com/pages/${slug}.png`,
      canonicalUrl: `https://www.example-news.com/${slug}`,
      keywords: ctx.pools.words.slice(i * 5, i * 5 + 5),
    },
    // The last page of every scale with more than two is switched off, to show "Page not enabled".
    enabled: !(ctx.sizes.pages > 2 && i === ctx.sizes.pages - 1),
  };
}

/** How many of an issue's own articles it lists in its contents; the rest feed its "latest" section. */
const LISTED = 12;

export function makeIssue(ctx: GenContext, i: number): IssueDoc {
  const r = randFor(ctx.seed, 'issue', i);
  const per = articlesPerIssue(ctx);
  const first = i * per;
  const last = i === ctx.sizes.issues - 1 ? ctx.sizes.articles : first + per;
  const own = Array.from({ length: last - first }, (_, k) => first + k);
  const listed = own.slice(0, LISTED);
  const groups = new Map<number, string[]>();
  for (const a of listed) {
    const c = primaryCategory(ctx, a);
    groups.set(c, [...(groups.get(c) ?? []), id('article', a)]);
  }
  const contents = [...groups].map(([c, articleIds]) => ({ categoryId: id('category', c), articleIds }));
  const date = ctx.now - SPAN_MS + Math.floor(((i + 1) * SPAN_MS) / ctx.sizes.issues);
  const page = pageOfIssue(ctx, i);
  // In the order the fields drew before: the title, then the status.
  const title = `${r.pick(ctx.pools.headlines)}`;
  const status = publicationStatus(r);
  const latest = (own.length > LISTED ? own.slice(LISTED) : own).slice(0, 8).map((a) => id('article', a));
  return {
    _id: id('issue', i),
    pageId: id('page', page),
    title,
    date: new Date(date - (date % 86_400_000)),
    status,
    publishAt: scheduledPublishAt(ctx, status, i),
    contents,
    timestamp: new Date(date + r.int(0, 6) * 3_600_000),
    lastModifierUserId: `editor-${r.int(1, 40)}`,
    issueNumber: Math.floor(i / ctx.sizes.pages) + 1,
    pdfFiles: [
      { name: 'full', url: `https://pdf.example-news.com/${id('issue', i)}.pdf` },
      ...(r.chance(0.5)
        ? [{ name: 'preview', url: `https://pdf.example-news.com/${id('issue', i)}-preview.pdf` }]
        : []),
    ],
    imageUrl: `https://img.example-news.com/issues/${i + 1}.jpg`,
    topImageUrl: r.chance(0.5) ? `https://img.example-news.com/issues/${i + 1}-top.jpg` : null,
    pollId: r.chance(0.3) ? id('poll', r.int(0, ctx.sizes.polls - 1)) : null,
    dynamicSections: [
      {
        name: 'latest',
        displayName: 'Latest',
        limit: 5,
        direction: 'append',
        type: 'articles',
        articleIds: latest,
        linkables: [],
      },
      {
        name: 'partners',
        displayName: 'From our partners',
        limit: 4,
        direction: 'append-unsorted',
        type: 'linkables',
        articleIds: [],
        linkables: r
          .sample(ctx.pools.companies, 5)
          .map((c) => ({ name: c, url: `https://partners.example-news.com/${slugify(c)}`, objectType: 'external' })),
      },
    ],
    repeatedArticleGroups: [
      {
        name: r.pick(['Editorial', 'Opinion', 'In brief', 'Letters']),
        articleIds: listed.slice(-2).map((a) => id('article', a)),
      },
    ],
    frontPage: contents.length
      ? { categoryId: contents[0]!.categoryId, articleIds: listed.slice(0, 3).map((a) => id('article', a)) }
      : null,
    authorIds: r.sample(
      Array.from({ length: Math.min(ctx.sizes.authors, 50) }, (_, k) => id('author', k)),
      r.int(1, 2),
    ),
    channelId: String((i % ctx.sizes.channels) + 1),
  };
}
