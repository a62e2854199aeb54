// The GraphQL answer of the PageIssues operation -> the legacy REST shape: keyed objects where the
// interface says "keyed by", lower-case status and enum strings (docs/api.md).
//
// The answer is reshaped in place: graphql-js builds a fresh object for every position of its result, nothing
// else holds them, and a list of 20 issues is about 4 MB of JSON, so copying each object with a spread doubled
// the allocation of the whole answer. Replacing a property keeps its place, so the keys are written in the
// order they always were.
type Json = Record<string, any>;

/** GraphQL enum name -> stored/REST value: PUBLISHED -> published, APPEND_UNSORTED -> append-unsorted. */
const enumValue = (v: string | null | undefined): string | null => (v == null ? null : v.toLowerCase().replace(/_/g, '-'));

function keyBy<T extends Json>(list: T[], key: string, value: (entry: T) => unknown = (entry) => entry): Record<string, unknown> {
  return Object.fromEntries(list.map((entry) => [String(entry[key]), value(entry)]));
}

function category(c: Json | null): Json | null {
  if (c) c.status = enumValue(c.status);
  return c;
}

function attachment(a: Json): Json {
  a.type = enumValue(a.type);
  a.additionalUrls = keyBy(a.additionalUrls, 'transform', (u) => u.url);
  if (a.video) a.video.status = enumValue(a.video.status);
  return a;
}

export function legacyArticle(a: Json): Json {
  a.categories.forEach(category);
  category(a.category);
  for (const list of [a.attachments, a.inlineAttachments, a.files, a.videos] as Json[][]) list.forEach(attachment);
  for (const k of a.keywords as Json[]) k.translations = keyBy(k.translations, 'language');
  for (const q of a.elements.quizzes as Json[]) q.status = enumValue(q.status);
  a.status = enumValue(a.status);
  return a;
}

/** A section carries `articles` or `linkables`, whichever its type holds (both come after `type`). */
function section(s: Json, article: (a: Json) => Json): Json {
  s.direction = enumValue(s.direction);
  s.type = enumValue(s.type);
  if (s.type === 'articles') {
    delete s.linkables;
    s.articles = s.articles.map(article);
  } else {
    delete s.articles;
  }
  return s;
}

export function legacyIssue(i: Json): Json {
  i.status = enumValue(i.status);
  i.contents = keyBy(i.contents, 'categoryId', (c) => ({ category: category(c.category), articles: c.articles.map(legacyArticle) }));
  i.pdfFiles = keyBy(i.pdfFiles, 'name', (f) => f.url);
  i.dynamicSections = keyBy(i.dynamicSections.map((s: Json) => section(s, legacyArticle)), 'name');
  for (const group of i.repeatedArticleGroups as Json[]) group.articles = group.articles.map(legacyArticle);
  if (i.frontPage) {
    category(i.frontPage.category);
    i.frontPage.articles = i.frontPage.articles.map(legacyArticle);
  }
  if (i.channel) {
    const configuration = i.channel.configuration;
    configuration.linkables = keyBy(configuration.linkables, 'key', (l) => l.linkables);
    configuration.dynamicSections = keyBy(configuration.dynamicSections.map((s: Json) => section(s, (a) => a)), 'name');
  }
  return i;
}
