// DynamicSection.articles: the section's published articles, ordered by `direction`, cut to `limit`.
import type { GraphQLResolveInfo } from 'graphql';
import { Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { selectionOf } from '../../graphql/selection.js';
import type { Context } from '../../context.js';
import { articlesByIds } from '../../operations/content/articles.js';
import { Article } from '../../schema/content/article.type.js';
import { SectionDirection } from '../../schema/content/enums.js';
import { DynamicSection } from '../../schema/content/section.type.js';

const newestFirst = (a: Article, b: Article): number =>
  (b.firstPublishedDate?.getTime() ?? 0) - (a.firstPublishedDate?.getTime() ?? 0) ||
  (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

@Resolver(() => DynamicSection)
export class DynamicSectionResolver {
  @FieldResolver(() => [Article], {
    description:
      'Published articles of an ARTICLES section: APPEND newest first, APPEND_UNSORTED in editorial order; at most `limit`',
  })
  async articles(
    @Root() section: DynamicSection,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Article[]> {
    if (section.articleIds.length === 0) return [];
    const articles = await articlesByIds(ctx, section.articleIds, () => selectionOf(info));
    if (section.direction === SectionDirection.APPEND) articles.sort(newestFirst);
    return articles.slice(0, Math.max(0, section.limit));
  }
}
