// The nested objects of a product item: settings, prices, installments, media,
// action data and related items. Amounts are decimals in the item's currency.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { RecurrentSchedule } from './catalogue.enums.js';

@ObjectType({ description: 'Labels, dimensions and renewal terms of a product item' })
export class ProductItemSettings {
  @Field({ description: 'Whether the item has an image of its own' })
  hasImage!: boolean;

  @Field(() => String, { nullable: true, description: 'First extra label shown with the item; null when none' })
  additionalLabel1!: string | null;

  @Field(() => String, { nullable: true, description: 'Second extra label shown with the item; null when none' })
  additionalLabel2!: string | null;

  @Field(() => String, { nullable: true, description: 'Third extra label shown with the item; null when none' })
  additionalLabel3!: string | null;

  @Field(() => Int, { nullable: true, description: 'Diameter in millimetres' })
  diameter!: number | null;

  @Field(() => Int, { nullable: true, description: 'Length in millimetres' })
  length!: number | null;

  @Field(() => Int, { nullable: true, description: 'Depth in millimetres' })
  depth!: number | null;

  @Field(() => Int, { nullable: true, description: 'Width in millimetres' })
  width!: number | null;

  @Field({ description: 'Whether the item renews (a subscription)' })
  recurrent!: boolean;

  @Field(() => Float, { nullable: true, description: 'Amount charged on each renewal, in the item currency' })
  recurrentPrice!: number | null;

  @Field(() => Int, { nullable: true, description: 'Days after the purchase when the first renewal is charged' })
  recurrentStart!: number | null;

  @Field(() => RecurrentSchedule, {
    nullable: true,
    description: 'How often a recurrent item renews; null when not set',
  })
  recurrentSchedule!: RecurrentSchedule | null;
}

@ObjectType({ description: 'Prices per sales channel, in the item currency' })
export class ProductItemPrices {
  @Field(() => Float, { description: 'Price on the web' })
  web!: number;

  @Field(() => Float, { description: 'Price in the mobile apps' })
  mobile!: number;

  @Field(() => Float, { nullable: true, description: 'The former or list price shown struck through' })
  compareAt!: number | null;
}

@ObjectType({ description: 'Paying in instalments' })
export class Installments {
  @Field(() => Int, { description: 'Number of instalments' })
  count!: number;

  @Field(() => Int, { description: 'Months between two instalments' })
  intervalMonths!: number;
}

@ObjectType({ description: 'An image of a product item' })
export class ItemImage {
  @Field({ description: 'Image URL' })
  url!: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels' })
  width!: number | null;

  @Field(() => Int, { nullable: true, description: 'Height in pixels' })
  height!: number | null;

  @Field(() => String, { nullable: true, description: 'Alternative text; null when none' })
  alt!: string | null;
}

@ObjectType({ description: 'A downloadable file of a product item' })
export class ItemFile {
  @Field({ description: 'URL of the file' })
  url!: string;

  @Field({ description: 'File name shown to customers' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'MIME type of the file; null when unknown' })
  mimeType!: string | null;

  @Field(() => Int, { nullable: true, description: 'Size in bytes' })
  size!: number | null;
}

@ObjectType({ description: 'What happens when the item is bought or renewed' })
export class ActionDataEntry {
  @Field({ description: 'Name of the action to run' })
  function!: string;

  @Field(() => String, { nullable: true, description: 'Parameter of the action; null when none' })
  param!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A grouping such as `subscription`: buying grants an entitlement for it',
  })
  group!: string | null;
}

@ObjectType({ description: 'Items offered alongside this one; `items` is resolved through a loader' })
export class RelatedItems {
  @Field(() => [ID], { description: 'Ids of the related product items, in the listed order' })
  itemIds!: string[];

  lang!: string | null;
}

@ObjectType({ description: 'Deprecated reference to the owning product: no nested product, to avoid cycles' })
export class ProductDetails {
  @Field(() => ID, { description: 'Id of the owning product, the same as `productId`' })
  id!: string;
}
