// Stored shape of channels (collection `channels`); `_id` is a decimal string (docs/api.md).
import type { DynamicSectionDoc, LinkableDoc } from './section.doc.js';

export interface ChannelDoc {
  _id: string;
  name: string;
  image: string | null;
  description: string | null;
  objectType: string;
  configuration: {
    /** Lists of linkables keyed by list name (e.g. `menu`, `footer`). */
    linkables: Array<{ key: string; linkables: LinkableDoc[] }>;
    dynamicSections: DynamicSectionDoc[];
  };
}

declare module '../collections.js' {
  interface CollectionTypes {
    channels: ChannelDoc;
  }
}
