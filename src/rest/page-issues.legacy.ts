// The GraphQL answer of the PageIssues operation -> the legacy REST shape: keyed objects where the
// interface says "keyed by", lower-case status and enum strings (CONTRACT.md §1).
type Json = Record<string, any>;

/** GraphQL enum name -> stored/REST value: PUBLISHED -> published, APPEND_UNSORTED -> append-unsorted. */
const enumValue = (v: string | null | undefined): string | null => (v == null ? null : v.toLowerCase().replace(/_/g, '-'));

function keyBy<T extends Json>(list: T[], key: string, value: (entry: T) => unknown = (entry) => entry): Record<string, unknown> {
  return Object.fromEntries(list.map((entry) => [String(entry[key]), value(entry)]));
}

const category = (c: Json | null): Json | null => (c ? { ...c, status: enumValue(c.status) } : null);

function attachment(a: Json): Json {
  return {
    ...a,
    type: enumValue(a.type),
    additionalUrls: keyBy(a.additionalUrls, 'transform', (u) => u.url),
    video: a.video ? { ...a.video, status: enumValue(a.video.status) } : null,
  };
}

export function legacyArticle(a: Json): Json {
  return {
    ...a,
    categories: a.categories.map(category),
    category: category(a.category),
    attachments: a.attachments.map(attachment),
    inlineAttachments: a.inlineAttachments.map(attachment),
    files: a.files.map(attachment),
    videos: a.videos.map(attachment),
    keywords: a.keywords.map((k: Json) => ({ ...k, translations: keyBy(k.translations, 'language') })),
    elements: { ...a.elements, quizzes: a.elements.quizzes.map((q: Json) => ({ ...q, status: enumValue(q.status) })) },
    status: enumValue(a.status),
  };
}

/** A section carries `articles` or `linkables`, whichever its type holds. */
function section(s: Json, article: (a: Json) => Json): Json {
  const { articles, linkables, ...rest } = s;
  const type = enumValue(s.type);
  return { ...rest, direction: enumValue(s.direction), type, ...(type === 'articles' ? { articles: articles.map(article) } : { linkables }) };
}

export function legacyIssue(i: Json): Json {
  return {
    ...i,
    status: enumValue(i.status),
    contents: keyBy(i.contents, 'categoryId', (c) => ({ category: category(c.category), articles: c.articles.map(legacyArticle) })),
    pdfFiles: keyBy(i.pdfFiles, 'name', (f) => f.url),
    dynamicSections: keyBy(i.dynamicSections.map((s: Json) => section(s, legacyArticle)), 'name'),
    repeatedArticleGroups: i.repeatedArticleGroups.map((g: Json) => ({ name: g.name, articles: g.articles.map(legacyArticle) })),
    frontPage: i.frontPage
      ? { categoryId: i.frontPage.categoryId, category: category(i.frontPage.category), articles: i.frontPage.articles.map(legacyArticle) }
      : null,
    channel: i.channel
      ? {
          ...i.channel,
          configuration: {
            linkables: keyBy(i.channel.configuration.linkables, 'key', (l) => l.linkables),
            dynamicSections: keyBy(i.channel.configuration.dynamicSections.map((s: Json) => section(s, (a) => a)), 'name'),
          },
        }
      : null,
  };
}
