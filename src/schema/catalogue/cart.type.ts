// API shape of a cart (docs/api.md): its items, each a product item with its
// quantity, and the price matrix as stored by the last write. Amounts are decimals in `currency`.
import { Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { CouponReason } from './catalogue.enums.js';
import { ProductItemFields } from './product-item.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({
  implements: ProductItemFields,
  description: 'A product item in a cart, with its quantity; `id` is `CartItem:<cart id>:<product item id>`',
})
export class CartItem extends ProductItemFields {
  @Field(() => ID, {
    description: 'The product item in the cart: the `id` of that ProductItem, which `productItem(id:)` fetches',
  })
  productItemId!: string;

  @Field(() => Int, { description: 'How many of the item the cart holds (at least 1)' })
  quantity!: number;
}

@ObjectType({ description: 'The price of one item of the cart' })
export class PriceLine {
  @Field(() => ID, { description: 'The product item priced: the `productItemId` of the cart item (not its `id`)' })
  itemId!: string;

  @Field(() => Int, { description: 'Quantity priced' })
  quantity!: number;

  @Field(() => Float, { description: 'Gross price of one unit, in the matrix currency' })
  unitPrice!: number;

  @Field(() => Float, { description: 'Unit price times quantity, before discounts' })
  lineTotal!: number;
}

@ObjectType({ description: 'A coupon applied to the cart and what it takes off' })
export class CartCoupon {
  @Field(() => ID, {
    description:
      'Unique across the whole graph: `CartCoupon:<cart id>:<coupon id>` (what the coupon takes off differs per cart)',
  })
  id!: string;

  @Field(() => ID, {
    description: "The coupon's own id, the same in every cart it is applied to; `removeCouponFromCart` takes it",
  })
  couponId!: string;

  @Field({ description: 'The code the customer entered, upper case' })
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

  @Field(() => Float, { description: 'Sum of the line totals, before discounts and shipping' })
  subtotal!: number;

  @Field(() => Float, { description: 'Taken off the items by coupons' })
  discount!: number;

  @Field(() => Float, { description: 'Shipping fee; 0 when nothing is shipped or shipping is waived' })
  shipping!: number;

  @Field(() => Float, { description: 'VAT contained in the total' })
  tax!: number;

  @Field(() => Float, { description: 'subtotal - discount + shipping' })
  total!: number;

  @Field(() => [PriceLine], { description: 'One line per item, in cart order' })
  lines!: PriceLine[];

  @Field(() => [CartCoupon], { description: 'The applied coupons, in the order they were applied' })
  coupons!: CartCoupon[];
}

@Directive('@cacheControl(scope: PRIVATE)') // per viewer: never shared between readers
@ObjectType({ implements: Node, description: "A customer's shopping cart; `items` is resolved through a loader" })
export class Cart {
  @Field(() => ID, { description: 'The stored id of the cart; `cart(id:)` and `node(id:)` fetch it again' })
  id!: string;

  @Field(() => PriceMatrix, { description: 'As computed by the last change to the cart' })
  priceMatrix!: PriceMatrix;

  /** The stored item references, in cart order. */
  itemRefs!: Array<{ productItemId: string; quantity: number }>;
  lang!: string | null;
}
