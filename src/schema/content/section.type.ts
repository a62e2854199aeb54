// Dynamic sections and linkables (§2.16), shared by issues and channel configurations.
import { Field, Int, ObjectType } from 'type-graphql';
import { SectionDirection, SectionType } from './enums.js';

@ObjectType({ description: 'A link to anything with a URL: a page, a section, an external site' })
export class Linkable {
  @Field({ description: 'Label of the link' })
  name!: string;

  @Field({ description: 'Target URL of the link' })
  url!: string;

  @Field({ description: 'What the link points at (e.g. `category`, `external`)' })
  objectType!: string;
}

@ObjectType({
  description: 'A named, editor-curated slot of articles or linkables; `articles` is resolved by a field resolver',
})
export class DynamicSection {
  @Field({ description: 'Key of the section (dynamic sections are keyed by name)' })
  name!: string;

  @Field({ description: 'Title to show above the section' })
  displayName!: string;

  @Field(() => Int, { description: 'Most items the section shows' })
  limit!: number;

  @Field(() => SectionDirection, { description: 'How the section orders its items' })
  direction!: SectionDirection;

  @Field(() => SectionType, { description: 'Whether the section holds articles or linkables' })
  type!: SectionType;

  @Field(() => [Linkable], {
    description: 'The linkables of a LINKABLES section, limited and ordered; empty for an ARTICLES section',
  })
  linkables!: Linkable[];

  /** Resolved into `articles` by DynamicSectionResolver. */
  articleIds!: string[];
}
