// What the editors' publication mutations answer, and which kind of document they change.
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { PublicationStatus } from './enums.js';

export enum PublishableKind {
  ARTICLE = 'articles',
  ISSUE = 'issues',
}

registerEnumType(PublishableKind, {
  name: 'PublishableKind',
  description: 'The kinds of documents editors publish, schedule and archive',
  valuesConfig: {
    ARTICLE: { description: 'An article' },
    ISSUE: { description: 'An issue' },
  },
});

@ObjectType({ description: 'A publication change an editor made: the status before and after, who and when' })
export class PublicationChange {
  @Field(() => ID, { description: 'Id of the article or issue' })
  id!: string;

  @Field(() => PublishableKind, { description: 'Whether an article or an issue' })
  kind!: PublishableKind;

  @Field(() => PublicationStatus, { description: 'The status now' })
  status!: PublicationStatus;

  @Field(() => PublicationStatus, { description: 'The status before the change' })
  previousStatus!: PublicationStatus;

  @Field(() => Date, { nullable: true, description: 'When a SCHEDULED document goes live by itself; null otherwise' })
  publishAt!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the document is archived by itself (embargo end, rights expiry); null for never',
  })
  unpublishAt!: Date | null;

  @Field(() => ID, { description: 'Customer id of the editor who made the change' })
  lastModifierUserId!: string;

  @Field(() => Date, { description: 'When the change was made' })
  changedAt!: Date;
}
