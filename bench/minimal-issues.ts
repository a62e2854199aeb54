// The least work the REST list's answer (GET /cms/page/{id}/issues?limit=N, first page) needs, written
// by hand: the documents the gateway reads (same collections, filters, projections, $in sets and
// count pipelines, through the same driver), each collection read once per wave of dependencies
// instead of once per loader batch, and the legacy JSON built directly in the order the gateway writes it.
//   1: page, issues, issue count            4: what full articles point at (types, sponsors, categories
//   2: content / front-page categories,        and their parents, authors, keywords, videos, live blogs,
//      channels, issue authors                  polls, quizzes)
//   3: every article                         5: parents not read yet, category types, live blog messages
import type { Db } from 'mongodb';
import type { ArticleDoc, ContentTypeDoc, SponsorDoc } from '../src/store/content/article.doc.js';
import type { ChannelDoc } from '../src/store/content/channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../src/store/content/elements.doc.js';
import type { AttachmentDoc, VideoDoc } from '../src/store/content/media.doc.js';
import type { IssueDoc } from '../src/store/content/page.doc.js';
import * as p from '../src/store/content/projections.js';
import type { DynamicSectionDoc } from '../src/store/content/section.doc.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from '../src/store/content/taxonomy.doc.js';
import { visibleArticle, visibleCategory, visibleQuiz, visibleVideo } from '../src/store/content/visibility.js';
import { byIds, findPage, issueCount, issuesOfPage, unique } from './minimal-nested.js';

type Json = Record<string, unknown>;

const PREVIEW_MESSAGES = 5;
const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

function previewMessages(db: Db, blogs: LiveBlogDoc[]): Promise<LiveBlogMessageDoc[]> {
  if (blogs.length === 0) return Promise.resolve([]);
  const n = blogs.length * PREVIEW_MESSAGES;
  return db
    .collection<LiveBlogMessageDoc>('liveBlogMessages')
    .find(
      { $or: blogs.map((b) => ({ liveBlogId: b._id, seq: { $gt: b.lastSeq - PREVIEW_MESSAGES } })) },
      { projection: p.liveBlogMessageProjection, sort: { liveBlogId: 1, seq: -1 }, limit: n, batchSize: n },
    )
    .toArray() as Promise<LiveBlogMessageDoc[]>;
}

const newestFirst = (a: ArticleDoc, b: ArticleDoc): number =>
  (b.firstPublishedDate?.getTime() ?? 0) - (a.firstPublishedDate?.getTime() ?? 0) ||
  (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/** The articles a section shows: in editorial order, newest first for `append`, cut to its limit. */
function sectionArticles(section: DynamicSectionDoc, articles: Map<string, ArticleDoc>): ArticleDoc[] {
  if (section.type !== 'articles' || section.articleIds.length === 0) return [];
  const found = section.articleIds.flatMap((id) => (articles.has(id) ? [articles.get(id)!] : []));
  if (section.direction === 'append') found.sort(newestFirst);
  return found.slice(0, Math.max(0, section.limit));
}

function sectionLinkables(section: DynamicSectionDoc): Json[] {
  if (section.type !== 'linkables') return [];
  const items = section.linkables.map((l) => ({ name: l.name, url: l.url, objectType: l.objectType }));
  if (section.direction === 'append') items.sort((a, b) => a.name.localeCompare(b.name));
  return items.slice(0, Math.max(0, section.limit));
}

export async function issuesAnswer(db: Db, pageId: string, limit: number): Promise<string> {
  // 1
  const [page, issueDocs, total] = await Promise.all([
    findPage(db, pageId),
    issuesOfPage(db, pageId, limit),
    issueCount(db, pageId),
  ]);
  if (!page || !page.enabled) throw new Error(`page ${pageId} absent or disabled`);
  const issues: IssueDoc[] = issueDocs.slice(0, limit);

  // 2
  const topCategoryIds = unique(
    issues.flatMap((i) => [
      ...i.contents.map((c) => c.categoryId),
      ...(i.frontPage?.categoryId ? [i.frontPage.categoryId] : []),
    ]),
  );
  const issueAuthorIds = unique(issues.flatMap((i) => i.authorIds));
  const [categoriesA, channels, issueAuthors] = await Promise.all([
    byIds<ContentCategoryDoc>(db, 'contentCategories', topCategoryIds, p.categoryProjection, visibleCategory),
    byIds<ChannelDoc>(
      db,
      'channels',
      unique(issues.flatMap((i) => (i.channelId ? [i.channelId] : []))),
      p.channelProjection,
    ),
    byIds<AuthorDoc>(db, 'authors', issueAuthorIds, p.authorProjection),
  ]);
  const kept = issues.map((i) => i.contents.filter((c) => categoriesA.has(c.categoryId)));

  // 3: the articles rendered in full, and those the channels' sections list in brief
  const sectionIds = (s: DynamicSectionDoc): string[] => (s.type === 'articles' ? s.articleIds : []);
  const fullIds = unique(
    issues.flatMap((issue, n) => [
      ...kept[n]!.flatMap((c) => c.articleIds),
      ...issue.dynamicSections.flatMap(sectionIds),
      ...issue.repeatedArticleGroups.flatMap((g) => g.articleIds),
      ...(issue.frontPage?.articleIds ?? []),
    ]),
  );
  const briefIds = [...channels.values()].flatMap((c) => c.configuration.dynamicSections.flatMap(sectionIds));
  const articles = await byIds<ArticleDoc>(
    db,
    'articles',
    unique([...fullIds, ...briefIds]),
    p.articleProjection,
    visibleArticle,
  );

  // What is rendered in full: contents, groups, front pages, and the part of each section it shows.
  const full = new Map<string, ArticleDoc>();
  const take = (a: ArticleDoc): void => void full.set(a._id, a);
  issues.forEach((issue, n) => {
    for (const c of kept[n]!) for (const id of c.articleIds) if (articles.has(id)) take(articles.get(id)!);
    for (const s of issue.dynamicSections) sectionArticles(s, articles).forEach(take);
    for (const g of issue.repeatedArticleGroups)
      for (const id of g.articleIds) if (articles.has(id)) take(articles.get(id)!);
    for (const id of issue.frontPage?.articleIds ?? []) if (articles.has(id)) take(articles.get(id)!);
  });
  const shown = [...full.values()];
  const attachmentsOf = (a: ArticleDoc): AttachmentDoc[] => [
    ...a.attachments,
    ...a.inlineAttachments,
    ...a.files,
    ...a.videos,
  ];

  // 4
  const categoriesBIds = unique([
    ...shown.flatMap((a) => [...a.categoryIds, ...(a.categoryId ? [a.categoryId] : [])]),
    ...[...categoriesA.values()].flatMap((c) => (c.parentCategoryId ? [c.parentCategoryId] : [])),
  ]).filter((id) => !topCategoryIds.includes(id));
  const authorIds = unique(shown.flatMap((a) => [...a.authorIds, ...(a.authorId ? [a.authorId] : [])])).filter(
    (id) => !issueAuthorIds.includes(id),
  );
  const [contentTypes, sponsors, categoriesB, articleAuthors, keywords, videos, liveBlogs, polls, quizzes] =
    await Promise.all([
      byIds<ContentTypeDoc>(
        db,
        'contentTypes',
        unique(shown.flatMap((a) => (a.contentTypeId ? [a.contentTypeId] : []))),
        p.contentTypeProjection,
      ),
      byIds<SponsorDoc>(
        db,
        'sponsors',
        unique(shown.flatMap((a) => (a.sponsorId ? [a.sponsorId] : []))),
        p.sponsorProjection,
      ),
      byIds<ContentCategoryDoc>(db, 'contentCategories', categoriesBIds, p.categoryProjection, visibleCategory),
      byIds<AuthorDoc>(db, 'authors', authorIds, p.authorProjection),
      byIds<KeywordDoc>(db, 'keywords', unique(shown.flatMap((a) => a.keywordIds)), p.keywordProjection),
      byIds<VideoDoc>(
        db,
        'videos',
        unique(shown.flatMap((a) => attachmentsOf(a).flatMap((x) => (x.videoId ? [x.videoId] : [])))),
        p.videoProjection,
        visibleVideo,
      ),
      byIds<LiveBlogDoc>(db, 'liveBlogs', unique(shown.flatMap((a) => a.elements.liveBlogIds)), p.liveBlogProjection),
      byIds<PollDoc>(db, 'polls', unique(shown.flatMap((a) => a.elements.pollIds)), p.pollProjection),
      byIds<QuizDoc>(db, 'quizzes', unique(shown.flatMap((a) => a.elements.quizIds)), p.quizProjection, visibleQuiz),
    ]);
  const category = (id: string | null): ContentCategoryDoc | null =>
    id ? (categoriesA.get(id) ?? categoriesB.get(id) ?? null) : null;
  const author = (id: string | null): AuthorDoc | null =>
    id ? (issueAuthors.get(id) ?? articleAuthors.get(id) ?? null) : null;

  // Categories rendered in full (they carry their type); parents only by id, name and slug.
  const fullCategories = unique([
    ...issues.flatMap((i, n) => [
      ...kept[n]!.map((c) => c.categoryId),
      ...(i.frontPage?.categoryId && category(i.frontPage.categoryId) ? [i.frontPage.categoryId] : []),
    ]),
    ...shown.flatMap((a) => [...a.categoryIds, ...(a.categoryId ? [a.categoryId] : [])].filter((id) => category(id))),
  ]);
  const read = new Set([...topCategoryIds, ...categoriesBIds]);
  const parentIds = unique(
    [...categoriesB.values()].flatMap((c) =>
      c.parentCategoryId && !read.has(c.parentCategoryId) ? [c.parentCategoryId] : [],
    ),
  );

  // 5
  const [parents, types, messages] = await Promise.all([
    byIds<ContentCategoryDoc>(db, 'contentCategories', parentIds, p.categoryProjection, visibleCategory),
    byIds<CategoryTypeDoc>(
      db,
      'categoryTypes',
      unique(fullCategories.flatMap((id) => (category(id)!.typeId ? [category(id)!.typeId!] : []))),
      p.categoryTypeProjection,
    ),
    previewMessages(db, [...liveBlogs.values()]),
  ]);

  const brief = (c: ContentCategoryDoc | null | undefined): Json | null =>
    c ? { id: c._id, name: c.name, slug: c.slug } : null;
  const legacyCategory = (id: string | null): Json | null => {
    const c = category(id);
    if (!c) return null;
    const type = c.typeId ? types.get(c.typeId) : undefined;
    const parent = c.parentCategoryId ? (category(c.parentCategoryId) ?? parents.get(c.parentCategoryId)) : undefined;
    return {
      id: c._id,
      name: c.name,
      signature: c.signature,
      slug: c.slug,
      typeId: c.typeId,
      type: type ? { id: type._id, name: type.name, slug: type.slug } : null,
      parentCategoryId: c.parentCategoryId,
      parent: brief(parent),
      imageUrl: c.imageUrl,
      coverUrl: c.coverUrl,
      logoUrl: c.logoUrl,
      paid: c.paid,
      objectClassName: c.objectClassName,
      absoluteUrl: c.absoluteUrl,
      cssCode: c.cssCode,
      templateName: c.templateName,
      tagline: c.tagline,
      linkParameter: c.linkParameter,
      description: c.description,
      metaDescription: c.metaDescription,
      order: c.order,
      pageId: c.pageId,
      articlesCount: c.articlesCount,
      allowComments: c.allowComments,
      accessType: c.accessType,
      status: c.status,
    };
  };
  const legacyAuthor = (a: AuthorDoc): Json => ({
    id: a._id,
    url: a.url,
    name: a.name,
    imageUrl: a.imageUrl,
    imageTransforms: a.imageTransforms.map((t) => ({ width: t.width, height: t.height, url: t.url })),
    coverImageUrl: a.coverImageUrl,
    email: a.email,
    department: a.department,
    slug: a.slug,
    shortBiography: a.shortBiography,
    fullDescription: a.fullDescription,
    latinName: a.latinName,
    country: a.country,
    legacySocialProfile: a.legacySocialProfile,
    microblogHandle: a.microblogHandle,
    socialNetworkUsername: a.socialNetworkUsername,
    professionalNetworkProfile: a.professionalNetworkProfile,
    photoSharingHandle: a.photoSharingHandle,
    className: a.className,
    replacedById: a.replacedById,
    source: a.source ?? null,
  });
  const attachment = (x: AttachmentDoc): Json => {
    const v = x.videoId ? videos.get(x.videoId) : undefined;
    return {
      id: x.id,
      name: x.name,
      description: x.description,
      type: x.type,
      publicUrl: x.publicUrl,
      width: x.width,
      height: x.height,
      focalPoint: x.focalPoint,
      transforms: x.transforms.map((t) => ({ width: t.width, height: t.height, url: t.url })),
      additionalUrls: Object.fromEntries(x.additionalUrls.map((u) => [u.transform, u.url])),
      searchTitle: x.searchTitle,
      searchDescription: x.searchDescription,
      socialTitle: x.socialTitle,
      videoId: x.videoId,
      video: v
        ? {
            id: v._id,
            title: v.title,
            url: v.url,
            duration: v.duration,
            episodeNumber: v.episodeNumber,
            status: v.status,
            showId: v.showId,
            showName: v.showName,
            showUrl: v.showUrl,
            brief: v.brief,
            thumbnailUrl: v.thumbnailUrl,
            thumbnailPlayUrl: v.thumbnailPlayUrl,
            filename: v.filename,
            publishDate: iso(v.publishDate),
            views: v.views,
            publish: v.publish,
            formats: v.formats.map((f) => ({
              format: f.format,
              filename: f.filename,
              cdnPath: f.cdnPath,
              mimeType: f.mimeType,
              duration: f.duration,
            })),
          }
        : null,
    };
  };
  const messagesOf = new Map<string, LiveBlogMessageDoc[]>();
  for (const m of messages) messagesOf.set(m.liveBlogId, [...(messagesOf.get(m.liveBlogId) ?? []), m]);
  const present = <T>(ids: readonly string[], docs: Map<string, T>): T[] =>
    ids.flatMap((id) => (docs.has(id) ? [docs.get(id)!] : []));

  const legacyArticle = (a: ArticleDoc): Json => {
    const contentType = a.contentTypeId ? contentTypes.get(a.contentTypeId) : undefined;
    const sponsor = a.sponsorId ? sponsors.get(a.sponsorId) : undefined;
    const allowed = !(a.accessControlEnabled && a.premium);
    const primaryAuthor = author(a.authorId);
    return {
      objectClassName: a.objectClassName,
      id: a._id,
      signature: a.signature,
      absoluteUrl: a.absoluteUrl,
      shortUrl: a.shortUrl,
      slug: a.slug,
      contentTypeId: a.contentTypeId,
      contentType: contentType
        ? { id: contentType._id, name: contentType.name, slug: contentType.slug, editor: contentType.editor }
        : null,
      viewsCount: a.viewsCount,
      commentsCount: a.commentsCount,
      averageRatingByCustomers: a.averageRatingByCustomers,
      totalRatingsCount: a.totalRatingsCount,
      previewLimit: a.previewLimit,
      excludedFromSearchEngine: a.excludedFromSearchEngine,
      title: a.title,
      firstPublishedDate: iso(a.firstPublishedDate),
      lastUpdateDate: iso(a.lastUpdateDate),
      categories: a.categoryIds.flatMap((id) => (category(id) ? [legacyCategory(id)] : [])),
      contentLength: a.contentLength,
      summary: a.summary,
      introduction: a.introduction,
      premium: a.premium,
      free: a.free,
      credits: a.credits,
      authors: a.authorIds.flatMap((id) => {
        const found = author(id);
        return found ? [legacyAuthor(found)] : [];
      }),
      sponsorId: a.sponsorId,
      sponsor: sponsor ? { id: sponsor._id, url: sponsor.url, name: sponsor.name, imageUrl: sponsor.imageUrl } : null,
      attachments: a.attachments.map(attachment),
      inlineAttachments: a.inlineAttachments.map(attachment),
      files: a.files.map(attachment),
      videos: a.videos.map(attachment),
      keywords: present(a.keywordIds, keywords).map((k) => ({
        id: k._id,
        name: k.name,
        url: k.url,
        slug: k.slug,
        description: k.description,
        articlesCount: k.articlesCount,
        replacedById: k.replacedById,
        displayName: k.displayName,
        translations: Object.fromEntries(
          k.translations.map((t) => [
            t.language,
            {
              language: t.language,
              name: t.name,
              displayName: t.displayName,
              description: t.description,
              slug: t.slug,
            },
          ]),
        ),
        collectionId: k.collectionId,
        imageUrl: k.imageUrl,
      })),
      elements: {
        liveBlogs: present(a.elements.liveBlogIds, liveBlogs).map((b) => ({
          id: b._id,
          title: b.title,
          startDate: iso(b.startDate),
          endDate: iso(b.endDate),
          websocketRoomName: b.websocketRoomName,
          previewMessages: (messagesOf.get(b._id) ?? []).map((m) => ({
            id: m._id,
            timestamp: iso(m.timestamp),
            text: m.text,
            title: m.title,
            minute: m.minute,
            additionalMinute: m.additionalMinute,
            typeId: m.typeId,
            imageLetter: m.imageLetter,
            highlight: m.highlight,
            htmlContent: m.htmlContent,
            userDisplayName: m.userDisplayName,
            userThumbnailUrl: m.userThumbnailUrl,
          })),
        })),
        polls: present(a.elements.pollIds, polls).map((q) => {
          const votes = q.choices.reduce((sum, c) => sum + c.votes, 0);
          return {
            id: q._id,
            timestamp: iso(q.timestamp),
            question: q.question,
            choices: q.choices.map((c) => ({ id: c.id, text: c.text, votes: c.votes })),
            votes,
            slug: q.slug,
            category: q.category ? { id: q.category.id, name: q.category.name, image: q.category.image } : null,
            results: q.choices.map((c) => ({
              choiceId: c.id,
              votes: c.votes,
              percentage: votes === 0 ? 0 : Math.round((c.votes / votes) * 10_000) / 100,
            })),
            message: q.message,
            onlyLoggedIn: q.onlyLoggedIn,
            endDate: iso(q.endDate),
            voted: false,
            votedChoice: null,
            closed: q.closed,
          };
        }),
        quizzes: present(a.elements.quizIds, quizzes).map((z) => ({
          id: z._id,
          name: z.name,
          timestamp: iso(z.timestamp),
          image: z.image,
          coverPicture: z.coverPicture,
          description: z.description,
          share: z.share,
          template: z.template,
          allowForm: z.allowForm,
          introductionMessage: z.introductionMessage,
          thankyouMessage: z.thankyouMessage,
          terms: z.terms,
          status: z.status,
          questions: z.questions.map((q) => ({
            id: q.id,
            title: q.title,
            resultText: q.resultText,
            image: q.image,
            choices: q.choices.map((c) => ({
              id: c.id,
              text: c.text,
              letter: c.letter,
              image: c.image,
              correct: c.correct,
              points: c.points,
              votes: c.votes,
            })),
          })),
          results: z.results.map((r) => ({
            id: r.id,
            result: r.result,
            image: r.image,
            letter: r.letter,
            resultText: r.resultText,
            share: r.share,
            twitterShare: r.twitterShare,
            minimum: r.minimum,
            maximum: r.maximum,
            votes: r.votes,
          })),
        })),
        videoPlatformVideoIds: a.elements.videoPlatformVideoIds,
      },
      seo: {
        searchTitle: a.seo.searchTitle,
        searchDescription: a.seo.searchDescription,
        socialTitle: a.seo.socialTitle,
        socialDescription: a.seo.socialDescription,
        socialImageUrl: a.seo.socialImageUrl,
      },
      timeToRead: a.timeToRead,
      accessControlEnabled: a.accessControlEnabled,
      accessAllowed: allowed,
      accessGroups: a.accessGroups.length ? a.accessGroups : ['subscription'],
      status: a.status,
      cached: a.cached,
      categoryId: a.categoryId,
      category: legacyCategory(a.categoryId),
      authorId: a.authorId,
      author: primaryAuthor ? legacyAuthor(primaryAuthor) : null,
      body: allowed ? a.body : null,
      preview: allowed ? a.preview : Array.from(a.preview).slice(0, Math.max(0, a.previewLimit)).join(''),
    };
  };
  const articleList = (ids: readonly string[]): Json[] => present(ids, articles).map(legacyArticle);
  const section = (s: DynamicSectionDoc, render: (a: ArticleDoc) => Json): Json => ({
    name: s.name,
    displayName: s.displayName,
    limit: s.limit,
    direction: s.direction,
    type: s.type,
    ...(s.type === 'articles'
      ? { articles: sectionArticles(s, articles).map(render) }
      : { linkables: sectionLinkables(s) }),
  });
  const briefArticle = (a: ArticleDoc): Json => ({
    id: a._id,
    title: a.title,
    slug: a.slug,
    absoluteUrl: a.absoluteUrl,
    shortUrl: a.shortUrl,
    firstPublishedDate: iso(a.firstPublishedDate),
    premium: a.premium,
  });

  const legacyIssues = issues.map((i, n) => {
    const channel = i.channelId ? channels.get(i.channelId) : undefined;
    return {
      id: i._id,
      title: i.title,
      date: iso(i.date),
      status: i.status,
      contents: Object.fromEntries(
        kept[n]!.map((c) => [
          c.categoryId,
          { category: legacyCategory(c.categoryId), articles: articleList(c.articleIds) },
        ]),
      ),
      timestamp: iso(i.timestamp),
      lastModifierUserId: i.lastModifierUserId,
      issueNumber: i.issueNumber,
      pdfFiles: Object.fromEntries(i.pdfFiles.map((f) => [f.name, f.url])),
      imageUrl: i.imageUrl,
      topImageUrl: i.topImageUrl,
      pollId: i.pollId,
      pageId: i.pageId,
      dynamicSections: Object.fromEntries(i.dynamicSections.map((s) => [s.name, section(s, legacyArticle)])),
      repeatedArticleGroups: i.repeatedArticleGroups.map((g) => ({
        name: g.name,
        articles: articleList(g.articleIds),
      })),
      frontPage: i.frontPage
        ? {
            categoryId: i.frontPage.categoryId,
            category: legacyCategory(i.frontPage.categoryId),
            articles: articleList(i.frontPage.articleIds),
          }
        : null,
      authors: present(i.authorIds, issueAuthors).map(legacyAuthor),
      channelId: i.channelId,
      channel: channel
        ? {
            id: channel._id,
            name: channel.name,
            image: channel.image,
            description: channel.description,
            objectType: channel.objectType,
            configuration: {
              linkables: Object.fromEntries(
                channel.configuration.linkables.map((l) => [
                  l.key,
                  l.linkables.map((x) => ({ name: x.name, url: x.url, objectType: x.objectType })),
                ]),
              ),
              dynamicSections: Object.fromEntries(
                channel.configuration.dynamicSections.map((s) => [s.name, section(s, briefArticle)]),
              ),
            },
          }
        : null,
    };
  });

  const m = page.publicFacingMetadata;
  return JSON.stringify({
    page: {
      id: page._id,
      name: page.name,
      previewUrl: page.previewUrl,
      publicFacingMetadata: {
        title: m.title,
        description: m.description,
        language: m.language,
        imageUrl: m.imageUrl,
        canonicalUrl: m.canonicalUrl,
        keywords: m.keywords,
      },
    },
    issues: legacyIssues,
    pagination: { page: 1, limit, total, totalPages: Math.ceil(total / limit) },
  });
}
