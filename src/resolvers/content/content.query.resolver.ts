// Root queries of the content graph (docs/api.md): thin, arguments straight to an operation.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, ID, Info, Query, Resolver } from 'type-graphql';
import { selectedWithArguments, selectionOf } from '../../graphql/selection.js';
import type { Context } from '../../context.js';
import { getArticle, listArticles } from '../../operations/content/articles.js';
import { getIssue } from '../../operations/content/issues.js';
import { searchArticles } from '../../operations/content/search.js';
import { getPage, listPages, type IssuesArgs } from '../../operations/content/pages.js';
import { getAuthor, getCategory, getChannel, getKeyword } from '../../operations/content/taxonomy.js';
import { Article, ArticleConnection } from '../../schema/content/article.type.js';
import { ArticlesFilter } from '../../schema/content/articles-filter.input.js';
import { ArticleSearchArgs } from '../../schema/content/article-search.input.js';
import { ArticleSearchConnection, type ArticleSearchShape } from '../../schema/content/article-search.type.js';
import { Author } from '../../schema/content/author.type.js';
import { ContentCategory } from '../../schema/content/category.type.js';
import { Channel } from '../../schema/content/channel.type.js';
import { ConnectionArgs } from '../../schema/content/connection.args.js';
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import { Issue } from '../../schema/content/issue.type.js';
import { Keyword } from '../../schema/content/keyword.type.js';
import { Page, PageConnection } from '../../schema/content/page.type.js';

@Resolver()
export class ContentQueryResolver {
  @Query(() => PageConnection, { description: 'Enabled pages, by name' })
  pages(@Ctx() ctx: Context, @Args() args: ConnectionArgs): Promise<ConnectionShape<Page>> {
    return listPages(ctx, args);
  }

  @Query(() => Page, {
    nullable: true,
    description: 'A page; null when there is none, PAGE_NOT_ENABLED when it is disabled',
  })
  page(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the page' }) id: string,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page | null> {
    // The page's issues are read beside the page (one wait for the store less).
    return getPage(ctx, id, selectedWithArguments<IssuesArgs>(info, 'issues'));
  }

  @Query(() => Issue, { nullable: true, description: 'A published issue of an enabled page; null otherwise' })
  issue(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the issue' }) id: string,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Issue | null> {
    return getIssue(ctx, id, selectionOf(info));
  }

  @Query(() => Article, {
    nullable: true,
    description: 'A published article, by id or by slug (exactly one); null when there is none',
  })
  article(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { nullable: true, description: 'Id of the article; give this or `slug`' }) id?: string | null,
    @Arg('slug', () => String, { nullable: true, description: 'Slug of the article; give this or `id`' })
    slug?: string | null,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Article | null> {
    return getArticle(ctx, { id, slug }, info && selectionOf(info));
  }

  @Query(() => ArticleConnection, { description: 'Published articles, newest first' })
  articles(
    @Ctx() ctx: Context,
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ArticlesFilter, {
      nullable: true,
      description: 'Narrows the list; omit for every published article',
    })
    filter?: ArticlesFilter | null,
  ): Promise<ConnectionShape<Article>> {
    return listArticles(ctx, filter, args);
  }

  @Query(() => ArticleSearchConnection, {
    description:
      'Published articles matching a text query in their title or summary, most relevant first, with highlights ' +
      'and facet counts; BAD_USER_INPUT for an empty or oversized query',
  })
  searchArticles(
    @Ctx() ctx: Context,
    @Args() args: ArticleSearchArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ArticleSearchShape> {
    return searchArticles(ctx, args, selectedWithArguments(info, 'facets').length > 0);
  }

  @Query(() => ContentCategory, {
    nullable: true,
    description: 'An active content category, by id or by slug (exactly one); null when there is none',
  })
  contentCategory(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { nullable: true, description: 'Id of the category; give this or `slug`' }) id?: string | null,
    @Arg('slug', () => String, { nullable: true, description: 'Slug of the category; give this or `id`' })
    slug?: string | null,
  ): Promise<ContentCategory | null> {
    return getCategory(ctx, { id, slug });
  }

  @Query(() => Author, { nullable: true, description: 'An author by id; null when there is none' })
  author(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the author' }) id: string,
  ): Promise<Author | null> {
    return getAuthor(ctx, id);
  }

  @Query(() => Keyword, {
    nullable: true,
    description: 'A keyword, by id or by slug (exactly one); null when there is none',
  })
  keyword(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { nullable: true, description: 'Id of the keyword; give this or `slug`' }) id?: string | null,
    @Arg('slug', () => String, { nullable: true, description: 'Slug of the keyword; give this or `id`' })
    slug?: string | null,
  ): Promise<Keyword | null> {
    return getKeyword(ctx, { id, slug });
  }

  @Query(() => Channel, { nullable: true, description: 'A channel by its numeric id; null when there is none' })
  channel(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the channel: 1 to 18 decimal digits' }) id: string,
  ): Promise<Channel | null> {
    return getChannel(ctx, id);
  }
}
