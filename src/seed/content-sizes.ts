// How much of everything each scale holds, and the shared context every content generator reads.
import type { ScaleName } from './seeder.js';
import { scales } from './seeder.js';
import type { Pools } from './content-pools.js';

export interface ContentSizes {
  articles: number;
  pages: number;
  issues: number;
  categories: number;
  authors: number;
  keywords: number;
  videos: number;
  liveBlogs: number;
  polls: number;
  quizzes: number;
  channels: number;
  sponsors: number;
}

const table: Record<ScaleName, Omit<ContentSizes, 'articles'>> = {
  tiny: {
    pages: 2,
    issues: 6,
    categories: 8,
    authors: 12,
    keywords: 30,
    videos: 10,
    liveBlogs: 3,
    polls: 4,
    quizzes: 3,
    channels: 2,
    sponsors: 3,
  },
  demo: {
    pages: 4,
    issues: 48,
    categories: 24,
    authors: 60,
    keywords: 200,
    videos: 80,
    liveBlogs: 10,
    polls: 20,
    quizzes: 10,
    channels: 3,
    sponsors: 10,
  },
  medium: {
    pages: 6,
    issues: 2_000,
    categories: 80,
    authors: 800,
    keywords: 5_000,
    videos: 3_000,
    liveBlogs: 100,
    polls: 500,
    quizzes: 200,
    channels: 5,
    sponsors: 50,
  },
  large: {
    pages: 12,
    issues: 40_000,
    categories: 200,
    authors: 5_000,
    keywords: 20_000,
    videos: 20_000,
    liveBlogs: 500,
    polls: 2_000,
    quizzes: 1_000,
    channels: 10,
    sponsors: 200,
  },
};

export const contentSizes = (scale: ScaleName): ContentSizes => ({ articles: scales[scale].articles, ...table[scale] });

/** Articles and issues spread over the two years before the moment of seeding. */
export const SPAN_MS = 2 * 365 * 86_400_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface GenContext {
  seed: number;
  /** The moment of seeding (ms): every date is relative to it, so the demo is as alive a year later. */
  now: number;
  sizes: ContentSizes;
  pools: Pools;
}

export const CONTENT_TYPES = ['News', 'Opinion', 'Review', 'Interview', 'Gallery', 'Video'] as const;
export const CATEGORY_TYPES = ['Section', 'Topic', 'Series', 'Dossier'] as const;
export const SECTION_NAMES = [
  'News',
  'Politics',
  'Economy',
  'Sport',
  'Culture',
  'Science',
  'Technology',
  'Health',
  'Travel',
  'Food',
  'Opinion',
  'World',
  'Local',
  'Motoring',
  'Lifestyle',
  'Education',
  'Environment',
  'Media',
  'Music',
  'Film',
] as const;

/** The page an issue belongs to, the issue an article was written for, the page of a category. */
export const pageOfIssue = (ctx: GenContext, issue: number): number => issue % ctx.sizes.pages;
export const articlesPerIssue = (ctx: GenContext): number =>
  Math.max(1, Math.floor(ctx.sizes.articles / ctx.sizes.issues));
export const issueOfArticle = (ctx: GenContext, article: number): number =>
  Math.min(Math.floor(article / articlesPerIssue(ctx)), ctx.sizes.issues - 1);
export const pageOfCategory = (ctx: GenContext, category: number): number => category % ctx.sizes.pages;

/** Ids are readable and stable: `article-17` is the 17th article of every run. */
export const id = (kind: string, index: number): string => `${kind}-${index + 1}`;
