// The GraphQL answer of the PageIssues operation -> the legacy REST shape: keyed objects where the
// interface says "keyed by", lower-case status and enum strings (docs/api.md).
//
// The answer is reshaped in place: graphql-js builds a fresh object for every position of its result, nothing
// else holds them, and a list of 20 issues is about 4 MB of JSON, so copying each object with a spread doubled
// the allocation of the whole answer. Replacing a property keeps its place, so the keys are written in the
// order they always were.
import type { PageIssuesPage } from './page-issues.operation.js';

type Issue = PageIssuesPage['issues']['edges'][number]['node'];
type Article = Issue['contents'][number]['articles'][number];
type Category = Issue['contents'][number]['category'];
type Attachment = Article['attachments'][number];
/** The fields of a dynamic section (an issue's or its channel's) that the legacy shape changes. */
interface Section {
  direction: string;
  type: string;
  articles: unknown[];
  linkables: unknown[];
}

/**
 * Writes the legacy value over a field of the answer, in place (the key keeps its position). The value's type
 * is the legacy shape's, which the answer's type does not describe.
 */
function put<T extends object>(object: T, key: keyof T & string, value: unknown): void {
  (object as Record<string, unknown>)[key] = value;
}

/** GraphQL enum name -> stored/REST value: PUBLISHED -> published, APPEND_UNSORTED -> append-unsorted. */
const enumValue = (v: string | null | undefined): string | null =>
  v == null ? null : v.toLowerCase().replace(/_/g, '-');

function keyBy<T>(
  list: T[],
  key: NoInfer<keyof T>,
  value: (entry: T) => unknown = (entry) => entry,
): Record<string, unknown> {
  return Object.fromEntries(list.map((entry) => [String(entry[key]), value(entry)]));
}

function category(c: Category | null): Category | null {
  if (c) put(c, 'status', enumValue(c.status));
  return c;
}

function attachment(a: Attachment): void {
  put(a, 'type', enumValue(a.type));
  put(
    a,
    'additionalUrls',
    keyBy(a.additionalUrls, 'transform', (u) => u.url),
  );
  if (a.video) put(a.video, 'status', enumValue(a.video.status));
}

function legacyArticle(a: Article): Article {
  a.categories.forEach(category);
  category(a.category);
  for (const list of [a.attachments, a.inlineAttachments, a.files, a.videos]) list.forEach(attachment);
  for (const k of a.keywords) put(k, 'translations', keyBy(k.translations, 'language'));
  for (const q of a.elements.quizzes) put(q, 'status', enumValue(q.status));
  put(a, 'status', enumValue(a.status));
  return a;
}

/** A section carries `articles` or `linkables`, whichever its type holds (both come after `type`). */
function section<S extends Section>(s: S, article: (a: S['articles'][number]) => unknown): S {
  put(s, 'direction', enumValue(s.direction));
  const type = enumValue(s.type);
  put(s, 'type', type);
  const fields = s as Partial<Section>;
  if (type === 'articles') {
    delete fields.linkables;
    put(s, 'articles', s.articles.map(article));
  } else {
    delete fields.articles;
  }
  return s;
}

export function legacyIssue(i: Issue): Issue {
  put(i, 'status', enumValue(i.status));
  put(
    i,
    'contents',
    keyBy(i.contents, 'categoryId', (c) => ({
      category: category(c.category),
      articles: c.articles.map(legacyArticle),
    })),
  );
  put(
    i,
    'pdfFiles',
    keyBy(i.pdfFiles, 'name', (f) => f.url),
  );
  put(
    i,
    'dynamicSections',
    keyBy(
      i.dynamicSections.map((s) => section(s, legacyArticle)),
      'name',
    ),
  );
  for (const group of i.repeatedArticleGroups) put(group, 'articles', group.articles.map(legacyArticle));
  if (i.frontPage) {
    category(i.frontPage.category);
    put(i.frontPage, 'articles', i.frontPage.articles.map(legacyArticle));
  }
  if (i.channel) {
    const configuration = i.channel.configuration;
    put(
      configuration,
      'linkables',
      keyBy(configuration.linkables, 'key', (l) => l.linkables),
    );
    put(
      configuration,
      'dynamicSections',
      keyBy(
        configuration.dynamicSections.map((s) => section(s, (a) => a)),
        'name',
      ),
    );
  }
  return i;
}
