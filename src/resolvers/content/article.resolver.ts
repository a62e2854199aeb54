// Article fields that reach other objects (content type, categories, authors, sponsor, keywords) and
// the per-viewer premium fields (docs/api.md).
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context.js';
import { accessAllowed, articleBody, articlePreview } from '../../operations/content/access.js';
import { ContentType, Sponsor } from '../../schema/content/article-parts.type.js';
import { Article } from '../../schema/content/article.type.js';
import { Author } from '../../schema/content/author.type.js';
import { ContentCategory } from '../../schema/content/category.type.js';
import { Keyword } from '../../schema/content/keyword.type.js';
import type { MaybePromise } from '../../operations/content/load.js';
import {
  authorOf,
  authorsOf,
  categoriesOf,
  categoryOf,
  contentTypeOf,
  keywordsOf,
  sponsorOf,
} from '../../operations/content/related.js';

@Resolver(() => Article)
export class ArticleResolver {
  @FieldResolver(() => ContentType, { nullable: true, description: 'The kind of article; null when it has none' })
  contentType(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<ContentType | null> {
    return contentTypeOf(ctx, article);
  }

  @FieldResolver(() => [ContentCategory], { description: 'Every active category the article is filed under' })
  categories(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<ContentCategory[]> {
    return categoriesOf(ctx, article.categoryIds);
  }

  @FieldResolver(() => ContentCategory, { nullable: true, description: 'The primary category' })
  category(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<ContentCategory | null> {
    return categoryOf(ctx, article.categoryId);
  }

  @FieldResolver(() => [Author], { description: 'Every author of the article, in byline order' })
  authors(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<Author[]> {
    return authorsOf(ctx, article.authorIds);
  }

  @FieldResolver(() => Author, { nullable: true, description: 'The primary author' })
  author(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<Author | null> {
    return authorOf(ctx, article.authorId);
  }

  @FieldResolver(() => Sponsor, {
    nullable: true,
    description: 'Who sponsored the article; null for an unsponsored article',
  })
  sponsor(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<Sponsor | null> {
    return sponsorOf(ctx, article);
  }

  @FieldResolver(() => [Keyword], { description: 'Keywords the article is tagged with' })
  keywords(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<Keyword[]> {
    return keywordsOf(ctx, article.keywordIds);
  }

  @FieldResolver(() => Boolean, { description: 'Whether this viewer may read the whole article' })
  accessAllowed(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<boolean> {
    return accessAllowed(ctx, article);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Full HTML body; null when access is not allowed' })
  body(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<string | null> {
    return articleBody(ctx, article);
  }

  @FieldResolver(() => String, {
    description: 'Plain-text teaser; at most `previewLimit` characters when access is not allowed',
  })
  preview(@Root() article: Article, @Ctx() ctx: Context): MaybePromise<string> {
    return articlePreview(ctx, article);
  }
}
