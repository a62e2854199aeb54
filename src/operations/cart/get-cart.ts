// Use cases: one of the caller's carts by id (null when absent or not theirs), and all of their carts.
import type { Context } from '../../context.js';
import type { Cart } from '../../schema/catalogue/cart.type.js';
import { toCart } from '../../store/catalogue/catalogue.mapper.js';
import { cartProjection } from '../../store/catalogue/catalogue.projections.js';
import { checkId, checkLang } from '../catalogue/catalogue.input.js';
import { requireCartScope } from './require-cart-scope.js';

/** A customer holds a handful of carts; the bound only stops a runaway answer. */
const MAX_CARTS = 100;

export async function getCart(ctx: Context, id: string, lang?: string | null): Promise<Cart | null> {
  const viewer = requireCartScope(ctx);
  const doc = await ctx.store
    .collection('carts')
    .findOne({ _id: checkId(id, 'id'), customerId: viewer.customerId }, { projection: cartProjection });
  return doc ? toCart(doc, checkLang(lang)) : null;
}

export async function listViewerCarts(ctx: Context, lang?: string | null): Promise<Cart[]> {
  const viewer = requireCartScope(ctx);
  const language = checkLang(lang);
  const docs = await ctx.store
    .collection('carts')
    .find(
      { customerId: viewer.customerId },
      { projection: cartProjection, sort: { updatedAt: -1, _id: 1 }, limit: MAX_CARTS },
    )
    .toArray();
  return docs.map((d) => toCart(d, language));
}
