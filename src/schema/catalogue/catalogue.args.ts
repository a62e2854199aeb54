// Arguments of the catalogue queries: the filters of GET /cms/product/categories and the language texts come in.
import { ArgsType, Field, ID, InputType } from 'type-graphql';

@ArgsType()
export class ProductCategoriesArgs {
  @Field(() => ID, {
    nullable: true,
    description: 'Children of this category; `root` for the top level; omit for every level',
  })
  parentId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only featured (true) or only non-featured (false) categories' })
  featured?: boolean | null;

  @Field(() => Boolean, {
    defaultValue: true,
    description: 'Available (true, the default) or unavailable (false) categories',
  })
  available!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'ISO 639-1 code: names, subtitles and descriptions in this language, falling back to the default language (en)',
  })
  lang?: string | null;
}

@InputType({ description: 'Which coupon to remove from which cart; give couponId, couponCode or both' })
export class RemoveCouponFromCartInput {
  @Field(() => ID, { description: "Id of one of the caller's carts" })
  cartId!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'The coupon: its own id (`CartCoupon.couponId`) or its id in this cart (`CartCoupon.id`)',
  })
  couponId?: string | null;

  @Field(() => String, { nullable: true, description: 'Matched case-insensitively' })
  couponCode?: string | null;
}
