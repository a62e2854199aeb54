// Every resolver class of the content graph, registered in src/resolvers/index.ts.
import { ArticleResolver } from './article.resolver.js';
import { ContentQueryResolver } from './content.query.resolver.js';
import { ArticleElementsResolver, AttachmentResolver, LiveBlogResolver, PollResolver } from './elements.resolver.js';
import { ArticleGroupResolver, FrontPageResolver, IssueContentResolver, IssueResolver } from './issue.resolver.js';
import { LiveMutationResolver } from './live.mutation.resolver.js';
import { LiveSubscriptionResolver } from './live.subscription.resolver.js';
import { PageResolver } from './page.resolver.js';
import { PublicationMutationResolver } from './publication.mutation.resolver.js';
import { PreviewLinkMutationResolver } from './preview-link.mutation.resolver.js';
import { DynamicSectionResolver } from './section.resolver.js';
import { AuthorResolver, ContentCategoryResolver, KeywordResolver } from './taxonomy.resolver.js';

export const contentResolvers = [
  ContentQueryResolver,
  PageResolver,
  IssueResolver,
  IssueContentResolver,
  ArticleGroupResolver,
  FrontPageResolver,
  DynamicSectionResolver,
  ArticleResolver,
  ArticleElementsResolver,
  AttachmentResolver,
  LiveBlogResolver,
  PollResolver,
  ContentCategoryResolver,
  AuthorResolver,
  KeywordResolver,
  LiveMutationResolver,
  LiveSubscriptionResolver,
  PublicationMutationResolver,
  PreviewLinkMutationResolver,
] as const;
