// Category, author and keyword fields that reach other objects, including their article connections.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { selectionOf } from '../../graphql/selection.js';
import type { Context } from '../../context.js';
import { articlesOf } from '../../operations/content/articles.js';
import { linkedPage } from '../../operations/content/pages.js';
import { Article, ArticleConnection } from '../../schema/content/article.type.js';
import { Author } from '../../schema/content/author.type.js';
import { CategoryType, ContentCategory } from '../../schema/content/category.type.js';
import { ConnectionArgs } from '../../schema/content/connection.args.js';
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import { Keyword, KeywordTranslation } from '../../schema/content/keyword.type.js';
import { Page } from '../../schema/content/page.type.js';
import { authorById, keywordById } from '../../store/content/loaders.js';
import { toAuthor, toKeyword } from '../../store/content/mappers/taxonomy.mapper.js';
import { loadOne, type MaybePromise } from '../../operations/content/load.js';
import { categoryOf, categoryTypeOf } from '../../operations/content/related.js';

@Resolver(() => ContentCategory)
export class ContentCategoryResolver {
  @FieldResolver(() => CategoryType, { nullable: true, description: 'The category type object (its id is `typeId`)' })
  type(@Root() category: ContentCategory, @Ctx() ctx: Context): MaybePromise<CategoryType | null> {
    return categoryTypeOf(ctx, category);
  }

  @FieldResolver(() => ContentCategory, { nullable: true, description: 'Parent object' })
  parent(@Root() category: ContentCategory, @Ctx() ctx: Context): MaybePromise<ContentCategory | null> {
    return categoryOf(ctx, category.parentCategoryId);
  }

  @FieldResolver(() => Page, {
    nullable: true,
    description: 'The page the category belongs to; null when there is none or it is disabled',
  })
  page(@Root() category: ContentCategory, @Ctx() ctx: Context): Promise<Page | null> {
    return linkedPage(ctx, category.pageId);
  }

  @FieldResolver(() => ArticleConnection, {
    nullable: true,
    description:
      'Published articles filed under the category, newest first; null when `first` or `after` is refused (the error says why)',
  })
  articles(
    @Root() category: ContentCategory,
    @Ctx() ctx: Context,
    @Args() args: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<Article>> {
    return articlesOf(ctx, 'category', category.id, args, selectionOf(info));
  }
}

@Resolver(() => Author)
export class AuthorResolver {
  @FieldResolver(() => Author, { nullable: true, description: 'The author that replaced this one' })
  replacedBy(@Root() author: Author, @Ctx() ctx: Context): MaybePromise<Author | null> {
    return loadOne(ctx.loaders.get(authorById), author.replacedById, toAuthor);
  }

  @FieldResolver(() => ArticleConnection, {
    nullable: true,
    description:
      'Published articles by the author, newest first; null when `first` or `after` is refused (the error says why)',
  })
  articles(
    @Root() author: Author,
    @Ctx() ctx: Context,
    @Args() args: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<Article>> {
    return articlesOf(ctx, 'author', author.id, args, selectionOf(info));
  }
}

@Resolver(() => Keyword)
export class KeywordResolver {
  @FieldResolver(() => Keyword, { nullable: true, description: 'The keyword that replaced this one' })
  replacedBy(@Root() keyword: Keyword, @Ctx() ctx: Context): MaybePromise<Keyword | null> {
    return loadOne(ctx.loaders.get(keywordById), keyword.replacedById, toKeyword);
  }

  @FieldResolver(() => ArticleConnection, {
    nullable: true,
    description:
      'Published articles tagged with the keyword, newest first; null when `first` or `after` is refused (the error says why)',
  })
  articles(
    @Root() keyword: Keyword,
    @Ctx() ctx: Context,
    @Args() args: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<Article>> {
    return articlesOf(ctx, 'keyword', keyword.id, args, selectionOf(info));
  }

  @FieldResolver(() => KeywordTranslation, {
    nullable: true,
    description: 'The translation into `language` (ISO 639-1), if any',
  })
  translation(
    @Root() keyword: Keyword,
    @Arg('language', { description: 'ISO 639-1 language code, e.g. `de`' }) language: string,
  ): KeywordTranslation | null {
    return keyword.translations.find((t) => t.language === language) ?? null;
  }
}
