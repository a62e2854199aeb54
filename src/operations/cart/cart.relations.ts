// A cart's items: each stored reference becomes the product item's fields plus its quantity, under an id of
// its own in that cart (the same item in two carts has two quantities).
// Loaders only, shared by the GraphQL field resolver and the REST answer.
import type { Context } from '../../context.js';
import type { Cart, CartItem } from '../../schema/catalogue/cart.type.js';
import { productItemById } from '../../store/catalogue/catalogue.loaders.js';
import { cartItemId, toProductItem } from '../../store/catalogue/catalogue.mapper.js';

/** Items that no longer exist are left out (they are also left out of the price). */
export async function cartItemsOf(ctx: Context, cart: Cart): Promise<CartItem[]> {
  const docs = await ctx.loaders.get(productItemById).loadMany(cart.itemRefs.map((r) => r.productItemId));
  return cart.itemRefs.flatMap((ref, i) => {
    const doc = docs[i];
    if (!doc || doc instanceof Error) return [];
    return [
      {
        ...toProductItem(doc, cart.lang),
        id: cartItemId(cart.id, ref.productItemId),
        productItemId: ref.productItemId,
        quantity: ref.quantity,
      },
    ];
  });
}
