// API shape of a cart (docs/api.md): its items, each a product item with its
// quantity, and the price matrix as stored by the last write. Amounts are decimals in `currency`.
import { Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { CouponReason } from './catalogue.enums.js';
import { ProductItemFields } from './product-item.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ implements: ProductItemFields, description: 'A product item in a cart, with its quantity' })
export class CartItem extends ProductItemFields {
  @Field(() => Int)
  quantity!: number;
}

@ObjectType()
export class PriceLine {
  @Field(() => ID)
  itemId!: string;

  @Field(() => Int)
  quantity!: number;

  @Field(() => Float)
  unitPrice!: number;

  @Field(() => Float, { description: 'Unit price times quantity, before discounts' })
  lineTotal!: number;
}

@ObjectType({ description: 'A coupon applied to the cart and what it takes off' })
export class CartCoupon {
  @Field(() => ID)
  id!: string;

  @Field()
  code!: string;

  @Field(() => Float, { description: 'Discount this coupon gives (for free shipping: the shipping fee waived)' })
  amount!: number;

  @Field(() => CouponReason, { nullable: true, description: 'Why the coupon takes nothing off; null when it applies' })
  reason!: CouponReason | null;
}

@ObjectType({ description: 'The prices of a cart; prices are gross, `tax` is the VAT they contain' })
export class PriceMatrix {
  @Field({ description: 'ISO 4217 currency code of every amount here' })
  currency!: string;

  @Field(() => Float)
  subtotal!: number;

  @Field(() => Float, { description: 'Taken off the items by coupons' })
  discount!: number;

  @Field(() => Float)
  shipping!: number;

  @Field(() => Float, { description: 'VAT contained in the total' })
  tax!: number;

  @Field(() => Float, { description: 'subtotal - discount + shipping' })
  total!: number;

  @Field(() => [PriceLine])
  lines!: PriceLine[];

  @Field(() => [CartCoupon])
  coupons!: CartCoupon[];
}

@Directive('@cacheControl(scope: PRIVATE)') // per viewer: never shared between readers
@ObjectType({ implements: Node, description: "A customer's shopping cart; `items` is resolved through a loader" })
export class Cart {
  @Field(() => ID)
  id!: string;

  @Field(() => PriceMatrix, { description: 'As computed by the last change to the cart' })
  priceMatrix!: PriceMatrix;

  /** The stored item references, in cart order. */
  itemRefs!: Array<{ productItemId: string; quantity: number }>;
  lang!: string | null;
}
