// Stored shape of pages and issues (collections `pages`, `issues`).
import type { ArticleRefs, DynamicSectionDoc } from './section.doc.js';

interface PageMetadataDoc {
  title: string;
  description: string;
  language: string;
  imageUrl: string | null;
  canonicalUrl: string;
  keywords: string[];
}

export interface PageDoc {
  _id: string;
  name: string;
  previewUrl: string;
  publicFacingMetadata: PageMetadataDoc;
  /** A disabled page answers 403 "Page not enabled" (docs/api.md). */
  enabled: boolean;
}

export type PublicationStatusValue = 'draft' | 'scheduled' | 'published' | 'archived';

/** One entry of "contents grouped by category": the category and its articles, in editorial order. */
interface IssueContentDoc extends ArticleRefs {
  categoryId: string;
}

export interface IssueDoc {
  _id: string;
  pageId: string;
  title: string;
  date: Date;
  status: PublicationStatusValue;
  /** When a `scheduled` issue goes live (src/operations/content/publication-clock.ts); null otherwise. */
  publishAt?: Date | null;
  /** When a `published` issue is archived by itself (embargo end, rights expiry); null for never. */
  unpublishAt?: Date | null;
  contents: IssueContentDoc[];
  timestamp: Date;
  lastModifierUserId: string | null;
  issueNumber: number;
  /** PDF editions keyed by name (e.g. `full`, `preview`). */
  pdfFiles: Array<{ name: string; url: string }>;
  imageUrl: string | null;
  topImageUrl: string | null;
  pollId: string | null;
  dynamicSections: DynamicSectionDoc[];
  repeatedArticleGroups: Array<ArticleRefs & { name: string }>;
  frontPage: (ArticleRefs & { categoryId: string | null }) | null;
  authorIds: string[];
  channelId: string | null;
}

declare module '../collections.js' {
  interface CollectionTypes {
    pages: PageDoc;
    issues: IssueDoc;
  }
}
