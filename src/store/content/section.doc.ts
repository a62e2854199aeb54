// Stored shape of dynamic sections and linkables, shared by issues and channel configurations.

export interface ArticleRefs {
  articleIds: string[];
}

export interface LinkableDoc {
  name: string;
  url: string;
  objectType: string;
}

type SectionDirectionValue = 'append' | 'append-unsorted';
type SectionTypeValue = 'articles' | 'linkables';

/**
 * A dynamic section holds either article references (type `articles`) or embedded linkables
 * (type `linkables`); `limit` and `direction` are applied when it is read, not when it is written.
 */
export interface DynamicSectionDoc {
  name: string;
  displayName: string;
  limit: number;
  direction: SectionDirectionValue;
  type: SectionTypeValue;
  articleIds: string[];
  linkables: LinkableDoc[];
}
