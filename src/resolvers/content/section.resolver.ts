// DynamicSection.articles: the section's published articles, ordered by `direction`, cut to `limit`.
import type { GraphQLResolveInfo } from 'graphql';
import { Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { selectionOf } from '../../graphql/selection.js';
import type { Context } from '../../context.js';
import type { MaybePromise } from '../../operations/content/load.js';
import { sectionArticles } from '../../operations/content/related.js';
import { Article } from '../../schema/content/article.type.js';
import { DynamicSection } from '../../schema/content/section.type.js';

@Resolver(() => DynamicSection)
export class DynamicSectionResolver {
  @FieldResolver(() => [Article], {
    description:
      'Published articles of an ARTICLES section: APPEND newest first, APPEND_UNSORTED in editorial order; at most `limit`',
  })
  articles(
    @Root() section: DynamicSection,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): MaybePromise<Article[]> {
    return sectionArticles(ctx, section, () => selectionOf(info));
  }
}
