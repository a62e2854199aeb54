// Root query `productItem`, the product item fields that reach other documents (on the interface, so
// cart items get them too), and related items.
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context.js';
import { productNameOf, relatedItemsOf } from '../../operations/catalogue/catalogue.relations.js';
import { getProductItem } from '../../operations/catalogue/get-product.js';
import { RelatedItems } from '../../schema/catalogue/product-item-parts.type.js';
import { ProductItem, ProductItemFields } from '../../schema/catalogue/product-item.type.js';
import { ProductItemTranslation } from '../../schema/catalogue/translation.type.js';

@Resolver(() => ProductItem)
export class ProductItemResolver {
  @Query(() => ProductItem, { nullable: true, description: 'A product item by id; null when there is none' })
  productItem(
    @Arg('id', () => ID, { description: 'Id of the product item' }) id: string,
    @Arg('lang', () => String, {
      nullable: true,
      description: 'ISO 639-1 code; falls back to the default language (en)',
    })
    lang: string | null,
    @Ctx() ctx: Context,
  ): Promise<ProductItem | null> {
    return getProductItem(ctx, id, lang);
  }
}

@Resolver(() => ProductItemFields)
export class ProductItemFieldsResolver {
  @FieldResolver(() => String, { nullable: true, description: "The owning product's name" })
  productName(@Root() item: ProductItemFields, @Ctx() ctx: Context): Promise<string | null> {
    return productNameOf(ctx, item);
  }

  @FieldResolver(() => ProductItemTranslation, {
    nullable: true,
    description: 'The translation into one language, if there is one',
  })
  translation(
    @Root() item: ProductItemFields,
    @Arg('language', () => String, { description: 'ISO 639-1 language code, e.g. `de`' }) language: string,
  ): ProductItemTranslation | null {
    return item.translations.find((t) => t.language === language) ?? null;
  }
}

@Resolver(() => RelatedItems)
export class RelatedItemsResolver {
  @FieldResolver(() => [ProductItem], { description: 'The related items that exist, in the listed order' })
  items(@Root() related: RelatedItems, @Ctx() ctx: Context): Promise<ProductItem[]> {
    return relatedItemsOf(ctx, related);
  }
}
