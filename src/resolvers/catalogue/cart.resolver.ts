// Root query `cart`, mutation `removeCouponFromCart`, the cart's items, and `viewer { carts }`.
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context.js';
import { cartItemsOf } from '../../operations/cart/cart.relations.js';
import { getCart, listViewerCarts } from '../../operations/cart/get-cart.js';
import { removeCouponFromCart } from '../../operations/cart/remove-coupon.js';
import { RemoveCouponFromCartInput } from '../../schema/catalogue/catalogue.args.js';
import { Cart, CartItem } from '../../schema/catalogue/cart.type.js';
import { Viewer } from '../../schema/catalogue/viewer.type.js';

const LANG = {
  nullable: true,
  description: 'ISO 639-1 code for item names; falls back to the default language (en)',
} as const;

@Resolver(() => Cart)
export class CartResolver {
  @Query(() => Cart, {
    nullable: true,
    description: "One of the caller's carts (scope `cart`); null when absent or not theirs",
  })
  cart(
    @Arg('id', () => ID, { description: 'Id of the cart' }) id: string,
    @Arg('lang', () => String, LANG) lang: string | null,
    @Ctx() ctx: Context,
  ): Promise<Cart | null> {
    return getCart(ctx, id, lang);
  }

  @Mutation(() => Cart, {
    description:
      "Removes a coupon from one of the caller's carts (scope `cart`) and returns the repriced cart; COUPON_NOT_IN_CART when it is not applied",
  })
  removeCouponFromCart(
    @Arg('input', () => RemoveCouponFromCartInput, { description: 'The cart and the coupon to remove' })
    input: RemoveCouponFromCartInput,
    @Arg('lang', () => String, LANG) lang: string | null,
    @Ctx() ctx: Context,
  ): Promise<Cart> {
    return removeCouponFromCart(ctx, input, lang);
  }

  @FieldResolver(() => [CartItem], { description: 'Product items with their quantities, in cart order' })
  items(@Root() cart: Cart, @Ctx() ctx: Context): Promise<CartItem[]> {
    return cartItemsOf(ctx, cart);
  }
}

@Resolver(() => Viewer)
export class ViewerResolver {
  @Query(() => Viewer, { nullable: true, description: 'The signed-in customer; null for anonymous requests' })
  viewer(@Ctx() ctx: Context): Viewer | null {
    return ctx.viewer ? { customerId: ctx.viewer.customerId } : null;
  }

  @FieldResolver(() => [Cart], {
    description: "The customer's carts, most recently changed first, at most 100 (scope `cart`)",
  })
  carts(@Arg('lang', () => String, LANG) lang: string | null, @Ctx() ctx: Context): Promise<Cart[]> {
    return listViewerCarts(ctx, lang);
  }
}
