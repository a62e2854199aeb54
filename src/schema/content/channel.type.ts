// Channel and its configuration.
import { Field, ID, ObjectType } from 'type-graphql';
import { DynamicSection, Linkable } from './section.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A named list of linkables (linkable lists are keyed by `key`)' })
export class LinkableList {
  @Field({ description: 'Name of the list, e.g. `menu` or `footer`' })
  key!: string;

  @Field(() => [Linkable], { description: 'The links of the list, in editorial order' })
  linkables!: Linkable[];
}

@ObjectType({ description: 'The navigation and sections of a channel' })
export class ChannelConfiguration {
  @Field(() => [LinkableList], { description: 'Lists of links (menus, footers), each with its key' })
  linkables!: LinkableList[];

  @Field(() => [DynamicSection], { description: 'Sections of the channel, each with its key `name`' })
  dynamicSections!: DynamicSection[];
}

@ObjectType({
  implements: Node,
  description: 'A distribution channel (site, app, newsletter) with its navigation and sections',
})
export class Channel {
  @Field(() => ID, { description: 'Decimal string' })
  id!: string;

  @Field({ description: 'Channel name' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Channel image URL' })
  image!: string | null;

  @Field(() => String, { nullable: true, description: 'Description of the channel; null when none' })
  description!: string | null;

  @Field({ description: 'Kind of channel, e.g. `site`, `app` or `newsletter`' })
  objectType!: string;

  @Field(() => ChannelConfiguration, { description: 'Navigation and sections of the channel' })
  configuration!: ChannelConfiguration;
}
