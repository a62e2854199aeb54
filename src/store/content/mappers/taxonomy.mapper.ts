// Stored categories, category types, authors and keywords -> API objects.
import type { Author } from '../../../schema/content/author.type.js';
import type { CategoryType, ContentCategory } from '../../../schema/content/category.type.js';
import type { CategoryStatus } from '../../../schema/content/enums.js';
import type { Keyword } from '../../../schema/content/keyword.type.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from '../taxonomy.doc.js';
import { toImageTransform } from './common.mapper.js';

export function toCategory(doc: ContentCategoryDoc): ContentCategory {
  const { _id, status, ...rest } = doc;
  return { ...rest, id: _id, status: status as CategoryStatus };
}

export const toCategoryType = (doc: CategoryTypeDoc): CategoryType => ({ id: doc._id, name: doc.name, slug: doc.slug });

export function toAuthor(doc: AuthorDoc): Author {
  const { _id, imageTransforms, source, ...rest } = doc;
  return {
    ...rest,
    id: _id,
    imageTransforms: (imageTransforms ?? []).map(toImageTransform), // absent when the read was narrowed
    source: source ?? null,
  };
}

export function toKeyword(doc: KeywordDoc): Keyword {
  const { _id, translations, ...rest } = doc;
  return { ...rest, id: _id, translations: (translations ?? []).map((t) => ({ ...t })) }; // absent when narrowed
}
