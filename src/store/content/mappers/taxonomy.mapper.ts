// Stored categories, category types, authors and keywords -> API objects.
import type { Author } from '../../../schema/content/author.type.js';
import type { CategoryType, ContentCategory } from '../../../schema/content/category.type.js';
import type { CategoryStatus } from '../../../schema/content/enums.js';
import type { Keyword } from '../../../schema/content/keyword.type.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from '../taxonomy.doc.js';
import { toImageTransform } from './common.mapper.js';

// Written out field by field rather than with a rest spread (`{ _id, ...rest }`): these run for every author,
// keyword and category of every article of an answer, and an object literal of a fixed shape costs a fraction
// of a spread's property-by-property copy. A field the read was narrowed away from is simply undefined.
export function toCategory(doc: ContentCategoryDoc): ContentCategory {
  return {
    id: doc._id,
    name: doc.name,
    signature: doc.signature,
    slug: doc.slug,
    typeId: doc.typeId,
    parentCategoryId: doc.parentCategoryId,
    imageUrl: doc.imageUrl,
    coverUrl: doc.coverUrl,
    logoUrl: doc.logoUrl,
    paid: doc.paid,
    objectClassName: doc.objectClassName,
    absoluteUrl: doc.absoluteUrl,
    cssCode: doc.cssCode,
    templateName: doc.templateName,
    tagline: doc.tagline,
    linkParameter: doc.linkParameter,
    description: doc.description,
    metaDescription: doc.metaDescription,
    order: doc.order,
    pageId: doc.pageId,
    articlesCount: doc.articlesCount,
    allowComments: doc.allowComments,
    accessType: doc.accessType,
    status: doc.status as CategoryStatus,
  };
}

export const toCategoryType = (doc: CategoryTypeDoc): CategoryType => ({ id: doc._id, name: doc.name, slug: doc.slug });

export function toAuthor(doc: AuthorDoc): Author {
  return {
    id: doc._id,
    url: doc.url,
    name: doc.name,
    imageUrl: doc.imageUrl,
    imageTransforms: (doc.imageTransforms ?? []).map(toImageTransform), // absent when the read was narrowed
    coverImageUrl: doc.coverImageUrl,
    email: doc.email,
    department: doc.department,
    slug: doc.slug,
    shortBiography: doc.shortBiography,
    fullDescription: doc.fullDescription,
    latinName: doc.latinName,
    country: doc.country,
    legacySocialProfile: doc.legacySocialProfile,
    microblogHandle: doc.microblogHandle,
    socialNetworkUsername: doc.socialNetworkUsername,
    professionalNetworkProfile: doc.professionalNetworkProfile,
    photoSharingHandle: doc.photoSharingHandle,
    className: doc.className,
    replacedById: doc.replacedById,
    source: doc.source ?? null,
  };
}

export function toKeyword(doc: KeywordDoc): Keyword {
  return {
    id: doc._id,
    name: doc.name,
    url: doc.url,
    slug: doc.slug,
    description: doc.description,
    articlesCount: doc.articlesCount,
    replacedById: doc.replacedById,
    displayName: doc.displayName,
    translations: doc.translations ?? [], // absent when narrowed; read-only here, so not copied
    collectionId: doc.collectionId,
    imageUrl: doc.imageUrl,
  };
}
