// Root query `product` and the Product fields that reach other documents.
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context.js';
import { itemsOf } from '../../operations/catalogue/catalogue.relations.js';
import { getProduct } from '../../operations/catalogue/get-product.js';
import { ProductItem } from '../../schema/catalogue/product-item.type.js';
import { Product } from '../../schema/catalogue/product.type.js';
import { ProductTranslatedText } from '../../schema/catalogue/translation.type.js';

const LANG = { nullable: true, description: 'ISO 639-1 code; falls back to the default language (en)' } as const;

@Resolver(() => Product)
export class ProductResolver {
  @Query(() => Product, { nullable: true, description: 'A product by id; null when there is none' })
  product(
    @Arg('id', () => ID, { description: 'Id of the product' }) id: string,
    @Arg('lang', () => String, LANG) lang: string | null,
    @Ctx() ctx: Context,
  ): Promise<Product | null> {
    return getProduct(ctx, id, lang);
  }

  @FieldResolver(() => [ProductItem], { description: 'The purchasable items of the product, in item order' })
  productItems(@Root() product: Product, @Ctx() ctx: Context): Promise<ProductItem[]> {
    return itemsOf(ctx, product);
  }

  @FieldResolver(() => ProductTranslatedText, {
    nullable: true,
    description: 'The texts in one language, if there are any',
  })
  translatedText(
    @Root() product: Product,
    @Arg('language', () => String, { description: 'ISO 639-1 language code, e.g. `de`' }) language: string,
  ): ProductTranslatedText | null {
    return product.translatedTexts.find((t) => t.language === language) ?? null;
  }
}
