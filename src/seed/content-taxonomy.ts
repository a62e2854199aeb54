// Generators of the small shared records: category types, content types, sponsors, categories, authors, keywords.
import type { ContentTypeDoc, SponsorDoc } from '../store/content/article.doc.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from '../store/content/taxonomy.doc.js';
import { randFor, slugify } from './content-random.js';
import { CATEGORY_TYPES, CONTENT_TYPES, SECTION_NAMES, id, pageOfCategory, type GenContext } from './content-sizes.js';

const SITE = 'https://www.example-news.com';
const IMG = 'https://img.example-news.com';

export const makeCategoryType = (i: number): CategoryTypeDoc => ({
  _id: id('category-type', i),
  name: CATEGORY_TYPES[i]!,
  slug: slugify(CATEGORY_TYPES[i]!),
});

export const makeContentType = (i: number): ContentTypeDoc => ({
  _id: id('content-type', i),
  name: CONTENT_TYPES[i]!,
  slug: slugify(CONTENT_TYPES[i]!),
  editor: i === 4 ? 'gallery' : i % 2 === 0 ? 'blocks' : 'richtext',
});

export function makeSponsor(ctx: GenContext, i: number): SponsorDoc {
  const name = ctx.pools.companies[i % ctx.pools.companies.length]!;
  return {
    _id: id('sponsor', i),
    url: `https://partners.example-news.com/${slugify(name)}-${i + 1}`,
    name,
    imageUrl: `${IMG}/sponsors/${i + 1}.png`,
  };
}

export function makeCategory(ctx: GenContext, i: number): ContentCategoryDoc {
  const r = randFor(ctx.seed, 'category', i);
  const pages = ctx.sizes.pages;
  const page = pageOfCategory(ctx, i);
  const base = SECTION_NAMES[Math.floor(i / pages) % SECTION_NAMES.length]!;
  const name = i < pages * SECTION_NAMES.length ? base : `${base}: ${ctx.pools.words[i % ctx.pools.words.length]}`;
  const slug = `${slugify(name)}-${i + 1}`;
  // The first categories of each page are top level; later ones hang below one of them.
  const parent = i >= pages * 4 ? r.int(0, 3) * pages + page : null;
  const paid = r.chance(0.1);
  return {
    _id: id('category', i),
    name,
    signature: `CAT-${(i + 1).toString(36).toUpperCase().padStart(4, '0')}`,
    slug,
    typeId: id('category-type', r.int(0, CATEGORY_TYPES.length - 1)),
    parentCategoryId: parent === null ? null : id('category', parent),
    imageUrl: `${IMG}/categories/${slug}.jpg`,
    coverUrl: r.chance(0.6) ? `${IMG}/categories/${slug}-cover.jpg` : null,
    logoUrl: r.chance(0.3) ? `${IMG}/categories/${slug}-logo.svg` : null,
    paid,
    objectClassName: 'ContentCategory',
    absoluteUrl: `${SITE}/${slug}`,
    cssCode: r.chance(0.2)
      ? `.category-${i + 1} { --accent: #${r.int(0, 0xffffff).toString(16).padStart(6, '0')}; }`
      : null,
    templateName: r.pick(['default', 'grid', 'list', 'magazine']),
    tagline: r.chance(0.5) ? r.pick(ctx.pools.sentences) : null,
    linkParameter: r.chance(0.2) ? `utm_campaign=${slugify(name)}` : null,
    description: r.pick(ctx.pools.sentences),
    metaDescription: r.pick(ctx.pools.sentences).slice(0, 155),
    order: Math.floor(i / pages),
    pageId: id('page', page),
    articlesCount: 0, // counted while the articles are generated
    allowComments: r.chance(0.8),
    accessType: paid ? 'restricted' : 'public',
    status: r.chance(0.95) ? 'active' : 'inactive',
  };
}

const ascii = (s: string): string => slugify(s).replace(/-/g, '.');

export function makeAuthor(ctx: GenContext, i: number): AuthorDoc {
  const r = randFor(ctx.seed, 'author', i);
  const { first, last } = ctx.pools.people[i % ctx.pools.people.length]!;
  const name = `${first} ${last}`;
  const slug = `${slugify(name)}-${i + 1}`;
  const handle = `${ascii(first)}_${ascii(last)}`.replace(/\./g, '_').slice(0, 15);
  const replaced = i > 0 && r.chance(0.02);
  return {
    _id: id('author', i),
    url: `${SITE}/authors/${slug}`,
    name,
    imageUrl: `${IMG}/authors/${i + 1}.jpg`,
    imageTransforms: [80, 160, 320].map((w) => ({ width: w, height: w, url: `${IMG}/authors/${i + 1}-${w}x${w}.jpg` })),
    coverImageUrl: r.chance(0.3) ? `${IMG}/authors/${i + 1}-cover.jpg` : null,
    email: `${ascii(first)}.${ascii(last)}.${i + 1}@example-news.com`,
    department: r.pick(['Politics', 'Economy', 'Sport', 'Culture', 'Science', 'Photo', 'Video', 'Online desk']),
    slug,
    shortBiography: r.pick(ctx.pools.sentences),
    fullDescription: `<p>${r.pick(ctx.pools.paragraphs)}</p>`,
    latinName: ascii(name)
      .replace(/\./g, ' ')
      .replace(/\b\w/g, (c) => c.toUpperCase()),
    country: r.pick(ctx.pools.countries),
    legacySocialProfile: r.chance(0.1) ? `https://plus.example.com/+${handle}` : null,
    microblogHandle: r.chance(0.6) ? handle : null,
    socialNetworkUsername: r.chance(0.5) ? `${ascii(first)}.${ascii(last)}` : null,
    professionalNetworkProfile: r.chance(0.4) ? `https://pro.example.com/in/${slug}` : null,
    photoSharingHandle: r.chance(0.3) ? handle.toLowerCase() : null,
    className: 'Author',
    replacedById: replaced ? id('author', r.int(0, i - 1)) : null,
    ...(r.chance(0.1) ? { source: 'legacy-cms-import' } : {}),
  };
}

export function makeKeyword(ctx: GenContext, i: number): KeywordDoc {
  const r = randFor(ctx.seed, 'keyword', i);
  const w = i % ctx.pools.words.length;
  const round = Math.floor(i / ctx.pools.words.length);
  const name =
    round === 0
      ? ctx.pools.words[w]!
      : `${ctx.pools.words[w]} ${ctx.pools.words[(w * 7 + round) % ctx.pools.words.length]}`;
  const slug = `${slugify(name)}-${i + 1}`;
  return {
    _id: id('keyword', i),
    name,
    url: `https://www.example-news.com/tags/${slug}`,
    slug,
    description: r.chance(0.4) ? r.pick(ctx.pools.sentences) : null,
    articlesCount: 0, // counted while the articles are generated
    replacedById: i > 0 && r.chance(0.02) ? id('keyword', r.int(0, i - 1)) : null,
    displayName: r.chance(0.5) ? name.charAt(0).toUpperCase() + name.slice(1) : null,
    translations: Object.entries(ctx.pools.wordsByLanguage)
      .filter(() => r.chance(0.4))
      .map(([language, words]) => ({
        language,
        name: words[w]!,
        displayName: null,
        description: null,
        slug: `${slugify(words[w]!)}-${i + 1}`,
      })),
    collectionId: r.chance(0.3) ? `collection-${r.int(1, 12)}` : null,
    imageUrl: r.chance(0.2) ? `https://img.example-news.com/tags/${slug}.jpg` : null,
  };
}
