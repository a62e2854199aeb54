// Issue and its embedded parts. Fields that reach other objects (page, poll,
// channel, authors, categories, articles) are resolved by IssueResolver and its part resolvers.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from './connection.type.js';
import { PublicationStatus } from './enums.js';
import { DynamicSection } from './section.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: "A PDF edition of an issue (PDF files are keyed by name, e.g. `full`, `preview`)" })
export class PdfFile {
  @Field()
  name!: string;

  @Field()
  url!: string;
}

@ObjectType({ description: "One entry of an issue's contents: a category and the issue's articles in it" })
export class IssueContent {
  @Field(() => ID, { description: 'The key of the entry: the content category id' })
  categoryId!: string;

  articleIds!: string[];
}

@ObjectType({ description: 'A group of articles that repeats from issue to issue (e.g. "Editorials")' })
export class ArticleGroup {
  @Field()
  name!: string;

  articleIds!: string[];
}

@ObjectType({ description: 'How the front page of an issue is built: a lead category and its articles' })
export class FrontPage {
  @Field(() => ID, { nullable: true })
  categoryId!: string | null;

  articleIds!: string[];
}

@ObjectType({ implements: Node, description: 'One issue of a page: articles grouped by category, plus dynamic sections' })
export class Issue {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  date!: Date;

  @Field(() => PublicationStatus)
  status!: PublicationStatus;

  @Field({ description: 'When the issue was last saved' })
  timestamp!: Date;

  @Field(() => ID, { nullable: true })
  lastModifierUserId!: string | null;

  @Field(() => Int)
  issueNumber!: number;

  @Field(() => [PdfFile])
  pdfFiles!: PdfFile[];

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;

  @Field(() => String, { nullable: true })
  topImageUrl!: string | null;

  @Field(() => ID, { nullable: true })
  pollId!: string | null;

  @Field(() => ID)
  pageId!: string;

  @Field(() => [DynamicSection], { description: 'Dynamic sections, each carrying its key `name`' })
  dynamicSections!: DynamicSection[];

  @Field(() => [ArticleGroup])
  repeatedArticleGroups!: ArticleGroup[];

  @Field(() => FrontPage, { nullable: true })
  frontPage!: FrontPage | null;

  @Field(() => ID, { nullable: true })
  channelId!: string | null;

  contentRefs!: IssueContent[];
  authorIds!: string[];
}

@ObjectType()
export class IssueConnection extends Connection(Issue, 'Issue') {}
