// API shape of a product item, what a customer actually buys. Its fields are a GraphQL
// interface shared with CartItem, so one client fragment serves both. `productName`, the translation
// lookup and related items are resolved through loaders.
import { Field, Float, ID, Int, InterfaceType, ObjectType } from 'type-graphql';
import {
  ActionDataEntry,
  Installments,
  ItemFile,
  ItemImage,
  ProductDetails,
  ProductItemPrices,
  ProductItemSettings,
  RelatedItems,
} from './product-item-parts.type.js';
import { ProductItemTranslation } from './translation.type.js';
import { Node } from '../types/node.type.js';

@InterfaceType({ description: 'The fields of a product item, shared by ProductItem and CartItem' })
export abstract class ProductItemFields {
  @Field(() => ID, {
    description:
      "Unique across the whole graph: a ProductItem's stored id; a CartItem's `CartItem:<cart id>:<product item id>`",
  })
  id!: string;

  @Field({ description: "The item's own name, in the requested language with a fallback to the default language" })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'In the requested language, falling back to the default language',
  })
  subtitle!: string | null;

  @Field(() => String, { nullable: true, description: 'Description of the item, not translated; null when none' })
  description!: string | null;

  @Field(() => ID, { description: 'The owning product' })
  productId!: string;

  @Field(() => Float, { description: 'Price (gross), in `currency`' })
  price!: number;

  @Field({ description: 'ISO 4217 currency code' })
  currency!: string;

  @Field({ description: 'Whether the item can be bought' })
  available!: boolean;

  @Field(() => Int, { description: 'Item order: position among the items of its product' })
  order!: number;

  @Field({ description: 'Whether the item is shipped (physical goods); a cart holding one pays the shipping fee' })
  shippable!: boolean;

  @Field(() => Int, { nullable: true, description: 'Weight in grams' })
  weight!: number | null;

  @Field(() => Installments, { nullable: true, description: 'Paying in instalments; null when not offered' })
  installments!: Installments | null;

  @Field({ description: 'Whether a customer may buy the item only once' })
  oncePerUser!: boolean;

  @Field({ description: 'Whether the item upgrades another item the customer holds (see `upgradeFrom`)' })
  isUpgrade!: boolean;

  @Field(() => String, { nullable: true, description: 'Kind of upgrade; null when not set' })
  upgradeType!: string | null;

  @Field(() => [ID], { description: 'Items a customer may upgrade from' })
  upgradeFrom!: string[];

  @Field(() => [ID], { description: 'Items whose holders may not take this upgrade' })
  upgradeExcludeItems!: string[];

  @Field(() => Float, { nullable: true, description: 'Upgrade price on the web, in `currency`' })
  upgradePriceWeb!: number | null;

  @Field(() => Float, { nullable: true, description: 'Upgrade price in the mobile apps, in `currency`' })
  upgradePriceMobile!: number | null;

  @Field(() => ProductItemSettings, { description: 'Labels, dimensions and renewal terms' })
  settings!: ProductItemSettings;

  @Field({ description: 'Stock keeping unit' })
  sku!: string;

  @Field(() => ProductItemPrices, { description: 'Prices per sales channel, in `currency`' })
  prices!: ProductItemPrices;

  @Field({ description: 'Whether stock is counted for the item' })
  stockEnabled!: boolean;

  @Field(() => Int, { nullable: true, description: 'Units in stock; null when unknown' })
  stockAvailable!: number | null;

  @Field(() => Int, { description: 'Units in one package' })
  packageQuantity!: number;

  @Field(() => RelatedItems, { description: 'Items offered alongside this one' })
  relatedItems!: RelatedItems;

  @Field(() => [ItemImage], { description: 'Images of the item' })
  images!: ItemImage[];

  @Field(() => [ItemFile], { description: 'Downloadable files of the item' })
  files!: ItemFile[];

  @Field(() => ProductDetails, {
    deprecationReason: 'Use productId',
    description: 'Deprecated: holds only the product id',
  })
  productDetails!: ProductDetails;

  @Field(() => [ProductItemTranslation], { description: 'Every translation the item has' })
  translations!: ProductItemTranslation[];

  @Field(() => [ActionDataEntry], { description: 'What happens when the item is bought' })
  actionDataOnPurchase!: ActionDataEntry[];

  @Field(() => [ActionDataEntry], { description: 'What happens when a recurrent item renews' })
  actionDataOnRenewalPurchase!: ActionDataEntry[];

  lang!: string | null;
}

@ObjectType({ implements: [ProductItemFields, Node], description: 'A purchasable variant of a product' })
export class ProductItem extends ProductItemFields {}
