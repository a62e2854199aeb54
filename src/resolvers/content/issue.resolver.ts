// Issue fields that reach other objects: contents, page, poll, channel, authors; and the article
// lists inside its contents, repeated groups and front page. All through request loaders.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { selectionOf } from '../../graphql/selection.js';
import type { Context } from '../../context.js';
import { articlesByIds } from '../../operations/content/articles.js';
import { linkedPage } from '../../operations/content/pages.js';
import { Article } from '../../schema/content/article.type.js';
import { Author } from '../../schema/content/author.type.js';
import { ContentCategory } from '../../schema/content/category.type.js';
import { Channel } from '../../schema/content/channel.type.js';
import { ArticleGroup, FrontPage, Issue, IssueContent } from '../../schema/content/issue.type.js';
import { Page } from '../../schema/content/page.type.js';
import { Poll } from '../../schema/content/poll.type.js';
import { DynamicSection } from '../../schema/content/section.type.js';
import { pollById } from '../../store/content/loaders.js';
import { toPoll } from '../../store/content/mappers/elements.mapper.js';
import { loadOne, type MaybePromise } from '../../operations/content/load.js';
import { authorsOf, categoryOf, channelOf, issueContents } from '../../operations/content/related.js';

@Resolver(() => Issue)
export class IssueResolver {
  @FieldResolver(() => [IssueContent], {
    description: 'Contents grouped by category (keyed by `categoryId`); groups of inactive categories are left out',
  })
  contents(@Root() issue: Issue, @Ctx() ctx: Context): MaybePromise<IssueContent[]> {
    // The categories were read with the issue (store/content/loaders.ts, readIssueContents): answered at once.
    return issueContents(ctx, issue);
  }

  @FieldResolver(() => Page, { nullable: true, description: 'The page the issue belongs to; null when it is disabled' })
  page(@Root() issue: Issue, @Ctx() ctx: Context): Promise<Page | null> {
    return linkedPage(ctx, issue.pageId);
  }

  @FieldResolver(() => Poll, { nullable: true, description: 'The poll of the issue; null when there is none' })
  poll(@Root() issue: Issue, @Ctx() ctx: Context): MaybePromise<Poll | null> {
    return loadOne(ctx.loaders.get(pollById), issue.pollId, (d) => toPoll(d, ctx.now));
  }

  @FieldResolver(() => Channel, {
    nullable: true,
    description: 'The channel the issue is distributed on; null when there is none',
  })
  channel(@Root() issue: Issue, @Ctx() ctx: Context): MaybePromise<Channel | null> {
    return channelOf(ctx, issue);
  }

  @FieldResolver(() => [Author], { description: 'Authors credited for the issue' })
  authors(@Root() issue: Issue, @Ctx() ctx: Context): MaybePromise<Author[]> {
    return authorsOf(ctx, issue.authorIds);
  }

  @FieldResolver(() => DynamicSection, { nullable: true, description: 'The dynamic section with this name' })
  dynamicSection(
    @Root() issue: Issue,
    @Arg('name', { description: 'Name (key) of the section' }) name: string,
  ): DynamicSection | null {
    return issue.dynamicSections.find((s) => s.name === name) ?? null;
  }
}

@Resolver(() => IssueContent)
export class IssueContentResolver {
  @FieldResolver(() => ContentCategory, {
    description: 'The content category of the entry (always active: entries of inactive categories are left out)',
  })
  category(@Root() content: IssueContent, @Ctx() ctx: Context): MaybePromise<ContentCategory | null> {
    // Already read by Issue.contents (which dropped inactive ones): returned at once.
    return categoryOf(ctx, content.categoryId);
  }

  @FieldResolver(() => [Article], { description: 'Published articles, in editorial order' })
  articles(
    @Root() content: IssueContent,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): MaybePromise<Article[]> {
    return articlesByIds(ctx, content.articleIds, () => selectionOf(info));
  }
}

@Resolver(() => ArticleGroup)
export class ArticleGroupResolver {
  @FieldResolver(() => [Article], { description: 'Published articles of the group, in editorial order' })
  articles(
    @Root() group: ArticleGroup,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): MaybePromise<Article[]> {
    return articlesByIds(ctx, group.articleIds, () => selectionOf(info));
  }
}

@Resolver(() => FrontPage)
export class FrontPageResolver {
  @FieldResolver(() => ContentCategory, {
    nullable: true,
    description: 'The lead category; null when there is none or it is inactive',
  })
  category(@Root() front: FrontPage, @Ctx() ctx: Context): MaybePromise<ContentCategory | null> {
    return categoryOf(ctx, front.categoryId);
  }

  @FieldResolver(() => [Article], { description: 'Published articles of the front page, in editorial order' })
  articles(@Root() front: FrontPage, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo): MaybePromise<Article[]> {
    return articlesByIds(ctx, front.articleIds, () => selectionOf(info));
  }
}
