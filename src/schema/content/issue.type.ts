// Issue and its embedded parts. Fields that reach other objects (page, poll,
// channel, authors, categories, articles) are resolved by IssueResolver and its part resolvers.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from './connection.type.js';
import { PublicationStatus } from './enums.js';
import { DynamicSection } from './section.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A PDF edition of an issue (PDF files are keyed by name, e.g. `full`, `preview`)' })
export class PdfFile {
  @Field({ description: 'Key of the PDF file, e.g. `full` or `preview`' })
  name!: string;

  @Field({ description: 'URL of the PDF file' })
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
  @Field({ description: 'Name of the group' })
  name!: string;

  articleIds!: string[];
}

@ObjectType({ description: 'How the front page of an issue is built: a lead category and its articles' })
export class FrontPage {
  @Field(() => ID, {
    nullable: true,
    description: 'Id of the lead category (the object is `category`); null when none',
  })
  categoryId!: string | null;

  articleIds!: string[];
}

@ObjectType({
  implements: Node,
  description: 'One issue of a page: articles grouped by category, plus dynamic sections',
})
export class Issue {
  @Field(() => ID, { description: 'The stored id of the issue' })
  id!: string;

  @Field({ description: 'Title of the issue' })
  title!: string;

  @Field({ description: 'Publication date of the issue' })
  date!: Date;

  @Field(() => PublicationStatus, { description: 'Always PUBLISHED: issues in other states are not served' })
  status!: PublicationStatus;

  @Field({ description: 'When the issue was last saved' })
  timestamp!: Date;

  @Field(() => ID, { nullable: true, description: 'Id of the CMS user who last saved the issue; null when unknown' })
  lastModifierUserId!: string | null;

  @Field(() => Int, { description: 'Number of the issue within its page' })
  issueNumber!: number;

  @Field(() => [PdfFile], { description: 'PDF editions of the issue' })
  pdfFiles!: PdfFile[];

  @Field(() => String, { nullable: true, description: 'Cover image URL; null when none' })
  imageUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Header image URL; null when none' })
  topImageUrl!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the poll of the issue (the object is `poll`); null when none',
  })
  pollId!: string | null;

  @Field(() => ID, { description: 'Id of the page the issue belongs to (the object is `page`)' })
  pageId!: string;

  @Field(() => [DynamicSection], { description: 'Dynamic sections, each carrying its key `name`' })
  dynamicSections!: DynamicSection[];

  @Field(() => [ArticleGroup], { description: 'Groups of articles that repeat from issue to issue' })
  repeatedArticleGroups!: ArticleGroup[];

  @Field(() => FrontPage, {
    nullable: true,
    description: 'How the front page of the issue is built; null when it has none',
  })
  frontPage!: FrontPage | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the channel the issue is distributed on (the object is `channel`); null when none',
  })
  channelId!: string | null;

  contentRefs!: IssueContent[];
  authorIds!: string[];
}

@ObjectType({ description: 'A page of a list of issues (Relay connection)' })
export class IssueConnection extends Connection(Issue, 'Issue') {}
