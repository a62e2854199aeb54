// The nested objects of a product item: settings, prices, installments, media,
// action data and related items. Amounts are decimals in the item's currency.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { RecurrentSchedule } from './catalogue.enums.js';

@ObjectType()
export class ProductItemSettings {
  @Field()
  hasImage!: boolean;

  @Field(() => String, { nullable: true })
  additionalLabel1!: string | null;

  @Field(() => String, { nullable: true })
  additionalLabel2!: string | null;

  @Field(() => String, { nullable: true })
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

  @Field(() => RecurrentSchedule, { nullable: true })
  recurrentSchedule!: RecurrentSchedule | null;
}

@ObjectType({ description: 'Prices per sales channel, in the item currency' })
export class ProductItemPrices {
  @Field(() => Float)
  web!: number;

  @Field(() => Float)
  mobile!: number;

  @Field(() => Float, { nullable: true, description: 'The former or list price shown struck through' })
  compareAt!: number | null;
}

@ObjectType({ description: 'Paying in instalments' })
export class Installments {
  @Field(() => Int)
  count!: number;

  @Field(() => Int, { description: 'Months between two instalments' })
  intervalMonths!: number;
}

@ObjectType()
export class ItemImage {
  @Field()
  url!: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels' })
  width!: number | null;

  @Field(() => Int, { nullable: true, description: 'Height in pixels' })
  height!: number | null;

  @Field(() => String, { nullable: true })
  alt!: string | null;
}

@ObjectType()
export class ItemFile {
  @Field()
  url!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  mimeType!: string | null;

  @Field(() => Int, { nullable: true, description: 'Size in bytes' })
  size!: number | null;
}

@ObjectType({ description: 'What happens when the item is bought or renewed' })
export class ActionDataEntry {
  @Field()
  function!: string;

  @Field(() => String, { nullable: true })
  param!: string | null;

  @Field(() => String, { nullable: true, description: 'A grouping such as `subscription`: buying grants an entitlement for it' })
  group!: string | null;
}

@ObjectType({ description: 'Items offered alongside this one; `items` is resolved through a loader' })
export class RelatedItems {
  @Field(() => [ID])
  itemIds!: string[];

  lang!: string | null;
}

@ObjectType({ description: 'Deprecated reference to the owning product: no nested product, to avoid cycles' })
export class ProductDetails {
  @Field(() => ID)
  id!: string;
}
