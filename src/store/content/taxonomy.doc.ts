// Stored shape of the taxonomy: content categories and their types, authors, keywords
// (collections `contentCategories`, `categoryTypes`, `authors`, `keywords`).
import type { ImageTransformDoc } from './media.doc.js';

type CategoryStatusValue = 'active' | 'inactive';

export interface ContentCategoryDoc {
  _id: string;
  name: string;
  signature: string;
  slug: string;
  typeId: string | null;
  parentCategoryId: string | null;
  imageUrl: string | null;
  coverUrl: string | null;
  logoUrl: string | null;
  paid: boolean;
  objectClassName: string;
  absoluteUrl: string;
  cssCode: string | null;
  templateName: string | null;
  tagline: string | null;
  linkParameter: string | null;
  description: string | null;
  metaDescription: string | null;
  order: number;
  pageId: string | null;
  /** Published articles filed under the category: a counter kept by whoever writes articles (the CMS, the seeder). */
  articlesCount: number;
  allowComments: boolean;
  accessType: string;
  status: CategoryStatusValue;
}

export interface CategoryTypeDoc {
  _id: string;
  name: string;
  slug: string;
}

export interface AuthorDoc {
  _id: string;
  url: string;
  name: string;
  imageUrl: string | null;
  imageTransforms: ImageTransformDoc[];
  coverImageUrl: string | null;
  email: string | null;
  department: string | null;
  slug: string;
  shortBiography: string | null;
  fullDescription: string | null;
  latinName: string | null;
  country: string | null;
  legacySocialProfile: string | null;
  microblogHandle: string | null;
  socialNetworkUsername: string | null;
  professionalNetworkProfile: string | null;
  photoSharingHandle: string | null;
  className: string;
  replacedById: string | null;
  /** Absent unless the author was imported from somewhere. */
  source?: string;
}

interface KeywordTranslationDoc {
  language: string;
  name: string;
  displayName: string | null;
  description: string | null;
  slug: string | null;
}

export interface KeywordDoc {
  _id: string;
  name: string;
  url: string;
  slug: string;
  description: string | null;
  /** Published articles tagged with the keyword: a counter kept by whoever writes articles. */
  articlesCount: number;
  replacedById: string | null;
  displayName: string | null;
  translations: KeywordTranslationDoc[];
  collectionId: string | null;
  imageUrl: string | null;
}

declare module '../collections.js' {
  interface CollectionTypes {
    contentCategories: ContentCategoryDoc;
    categoryTypes: CategoryTypeDoc;
    authors: AuthorDoc;
    keywords: KeywordDoc;
  }
}
