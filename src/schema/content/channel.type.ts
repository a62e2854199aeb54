// Channel and its configuration.
import { Field, ID, ObjectType } from 'type-graphql';
import { DynamicSection, Linkable } from './section.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A named list of linkables (linkable lists are keyed by `key`)' })
export class LinkableList {
  @Field()
  key!: string;

  @Field(() => [Linkable])
  linkables!: Linkable[];
}

@ObjectType()
export class ChannelConfiguration {
  @Field(() => [LinkableList])
  linkables!: LinkableList[];

  @Field(() => [DynamicSection])
  dynamicSections!: DynamicSection[];
}

@ObjectType({ implements: Node, description: 'A distribution channel (site, app, newsletter) with its navigation and sections' })
export class Channel {
  @Field(() => ID, { description: 'Decimal string' })
  id!: string;

  @Field({ description: 'Channel name' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Channel image URL' })
  image!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field()
  objectType!: string;

  @Field(() => ChannelConfiguration)
  configuration!: ChannelConfiguration;
}
