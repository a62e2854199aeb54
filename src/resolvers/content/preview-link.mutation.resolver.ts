// The editors' preview link mutations: thin adapters over operations/content/preview-links.ts.
import { Arg, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../context.js';
import {
  createPreviewLink,
  LONGEST_LINK_SECONDS,
  revokeLink,
  SHORTEST_LINK_SECONDS,
  type PreviewLink as Link,
} from '../../operations/content/preview-links.js';
import { CreatedPreviewLink, PreviewLink } from '../../schema/content/preview-link.type.js';
import { PublishableKind } from '../../schema/content/publication.type.js';

const toLink = (link: Link): PreviewLink => ({ ...link, kind: link.collection as PublishableKind });

@Resolver()
export class PreviewLinkMutationResolver {
  @Mutation(() => CreatedPreviewLink, {
    description: 'Makes a preview link to one article or issue, whatever its status. Editors only (the `editor` role)',
  })
  async createPreviewLink(
    @Ctx() ctx: Context,
    @Arg('kind', () => PublishableKind, { description: 'Article or issue' }) kind: PublishableKind,
    @Arg('id', () => ID, { description: 'Id of the document' }) id: string,
    @Arg('expiresIn', () => Int, {
      description: `Lifetime in seconds, ${SHORTEST_LINK_SECONDS} (five minutes) to ${LONGEST_LINK_SECONDS} (seven days)`,
    })
    expiresIn: number,
  ): Promise<CreatedPreviewLink> {
    const made = await createPreviewLink(ctx, { collection: kind, id, expiresIn });
    return { link: toLink(made), token: made.token, graphqlUrl: made.graphqlUrl, restUrl: made.restUrl };
  }

  @Mutation(() => PreviewLink, {
    description: 'Revokes a preview link: its token is refused at once. Editors only (the `editor` role)',
  })
  async revokePreviewLink(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the link (PreviewLink.id)' }) id: string,
  ): Promise<PreviewLink> {
    return toLink(await revokeLink(ctx, id));
  }
}
