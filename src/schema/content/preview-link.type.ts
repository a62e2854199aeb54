// What the editors' preview link mutations answer.
import { Field, ID, ObjectType } from 'type-graphql';
import { PublishableKind } from './publication.type.js';

@ObjectType({ description: 'A preview link: lets anyone holding its token read one article or issue as it stands' })
export class PreviewLink {
  @Field(() => ID, { description: 'Id of the link (what revokePreviewLink takes); not the token' })
  id!: string;

  @Field(() => PublishableKind, { description: 'Whether it shows an article or an issue' })
  kind!: PublishableKind;

  @Field(() => ID, { description: 'Id of the article or issue it shows' })
  documentId!: string;

  @Field(() => ID, { description: 'Customer id of the editor who made it' })
  createdBy!: string;

  @Field(() => Date, { description: 'When it was made' })
  createdAt!: Date;

  @Field(() => Date, { description: 'When its token stops working' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was revoked; null while it is not' })
  revokedAt!: Date | null;
}

@ObjectType({ description: 'A preview link just made, with its token: the only time the token is shown' })
export class CreatedPreviewLink {
  @Field(() => PreviewLink, { description: 'The link' })
  link!: PreviewLink;

  @Field({ description: 'The token: send it as the `Preview-Token` header or the `previewToken` query parameter' })
  token!: string;

  @Field({ description: 'GET /graphql with a small query of the document and the token, ready to open' })
  graphqlUrl!: string;

  @Field(() => String, {
    nullable: true,
    description: "For an issue, its page's REST issues list with the token (the issue listed in its place); else null",
  })
  restUrl!: string | null;
}
