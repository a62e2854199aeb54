// Root queries `productCategories` and `productCategory`, and the ProductCategory fields that reach other documents.
import { Arg, Args, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context.js';
import { breadcrumbsOf, productPageOf, totalProductsCountOf } from '../../operations/catalogue/catalogue.relations.js';
import { getProductCategory } from '../../operations/catalogue/get-product-category.js';
import { listProductCategories } from '../../operations/catalogue/list-product-categories.js';
import { ProductCategoriesArgs } from '../../schema/catalogue/catalogue.args.js';
import { ProductConnection } from '../../schema/catalogue/product-connection.type.js';
import { Breadcrumb, ProductCategory } from '../../schema/catalogue/product-category.type.js';
import { CategoryTranslation } from '../../schema/catalogue/translation.type.js';
import { ConnectionArgs } from '../../schema/content/connection.args.js';

@Resolver(() => ProductCategory)
export class ProductCategoryResolver {
  @Query(() => [ProductCategory], {
    description: 'Product categories in tree order, at most 1,000, filtered as GET /cms/product/categories',
  })
  productCategories(@Args() args: ProductCategoriesArgs, @Ctx() ctx: Context): Promise<ProductCategory[]> {
    return listProductCategories(ctx, {
      parentId: args.parentId ?? undefined,
      featured: args.featured ?? undefined,
      available: args.available,
      lang: args.lang ?? null,
    });
  }

  @Query(() => ProductCategory, {
    nullable: true,
    description:
      'One product category by id or by slug (exactly one: both or neither is BAD_USER_INPUT), available or not; null when there is none',
  })
  productCategory(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { nullable: true, description: "The category's id" }) id?: string | null,
    @Arg('slug', () => String, {
      nullable: true,
      description: "The category's slug (`slug`); the first in tree order should two share it",
    })
    slug?: string | null,
    @Arg('lang', () => String, {
      nullable: true,
      description: 'ISO 639-1 code: names and descriptions in this language, falling back to the default language (en)',
    })
    lang?: string | null,
  ): Promise<ProductCategory | null> {
    return getProductCategory(ctx, { id, slug, lang });
  }

  @FieldResolver(() => [Breadcrumb], { description: 'From the root category down to this one (included)' })
  breadcrumbs(@Root() category: ProductCategory, @Ctx() ctx: Context): Promise<Breadcrumb[]> {
    return breadcrumbsOf(ctx, category);
  }

  @FieldResolver(() => Int, { description: 'Number of available products listed in the category' })
  totalProductsCount(@Root() category: ProductCategory, @Ctx() ctx: Context): Promise<number> {
    return totalProductsCountOf(ctx, category);
  }

  @FieldResolver(() => ProductConnection, {
    nullable: true,
    description:
      'Available products of the category, in listing order; null when `first` or `after` is refused (the error says why)',
  })
  products(@Root() category: ProductCategory, @Args() args: ConnectionArgs, @Ctx() ctx: Context) {
    return productPageOf(ctx, category, args);
  }

  @FieldResolver(() => CategoryTranslation, {
    nullable: true,
    description: 'The translation into one language, if there is one',
  })
  translation(
    @Root() category: ProductCategory,
    @Arg('language', () => String, { description: 'ISO 639-1 language code, e.g. `de`' }) language: string,
  ): CategoryTranslation | null {
    return category.translations.find((t) => t.language === language) ?? null;
  }
}
