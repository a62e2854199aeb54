// The editors' publication mutations of articles and issues: thin adapters over operations/content/change-publication.ts.
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../context.js';
import { changePublication, type PublicationAction } from '../../operations/content/change-publication.js';
import type { PublicationStatus } from '../../schema/content/enums.js';
import { PublicationChange, PublishableKind } from '../../schema/content/publication.type.js';

const EDITORS = 'Editors only (the `editor` role)';

async function change(
  ctx: Context,
  kind: PublishableKind,
  id: string,
  action: PublicationAction,
  times: { publishAt?: Date | null; unpublishAt?: Date | null } = {},
): Promise<PublicationChange> {
  const changed = await changePublication(ctx, { collection: kind, id, action, ...times });
  return {
    ...changed,
    kind,
    status: changed.status as PublicationStatus,
    previousStatus: changed.previousStatus as PublicationStatus,
  };
}

@Resolver()
export class PublicationMutationResolver {
  @Mutation(() => PublicationChange, {
    description: `Publishes a DRAFT, SCHEDULED or ARCHIVED document at once. ${EDITORS}`,
  })
  publishNow(
    @Ctx() ctx: Context,
    @Arg('kind', () => PublishableKind, { description: 'Article or issue' }) kind: PublishableKind,
    @Arg('id', () => ID, { description: 'Id of the document' }) id: string,
    @Arg('unpublishAt', () => Date, { nullable: true, description: 'When to archive it by itself; in the future' })
    unpublishAt?: Date | null,
  ): Promise<PublicationChange> {
    return change(ctx, kind, id, 'publishNow', { unpublishAt });
  }

  @Mutation(() => PublicationChange, {
    description: `Schedules a DRAFT, SCHEDULED or ARCHIVED document to go live at publishAt. ${EDITORS}`,
  })
  schedulePublication(
    @Ctx() ctx: Context,
    @Arg('kind', () => PublishableKind, { description: 'Article or issue' }) kind: PublishableKind,
    @Arg('id', () => ID, { description: 'Id of the document' }) id: string,
    @Arg('publishAt', () => Date, { description: 'When it goes live; in the future, within five years' })
    publishAt: Date,
    @Arg('unpublishAt', () => Date, { nullable: true, description: 'When to archive it by itself; after publishAt' })
    unpublishAt?: Date | null,
  ): Promise<PublicationChange> {
    return change(ctx, kind, id, 'schedule', { publishAt, unpublishAt });
  }

  @Mutation(() => PublicationChange, {
    description: `Takes a PUBLISHED document off the site, back to DRAFT. ${EDITORS}`,
  })
  unpublish(
    @Ctx() ctx: Context,
    @Arg('kind', () => PublishableKind, { description: 'Article or issue' }) kind: PublishableKind,
    @Arg('id', () => ID, { description: 'Id of the document' }) id: string,
  ): Promise<PublicationChange> {
    return change(ctx, kind, id, 'unpublish');
  }

  @Mutation(() => PublicationChange, {
    description: `Moves a SCHEDULED (off the schedule) or ARCHIVED document back to DRAFT. ${EDITORS}`,
  })
  moveToDraft(
    @Ctx() ctx: Context,
    @Arg('kind', () => PublishableKind, { description: 'Article or issue' }) kind: PublishableKind,
    @Arg('id', () => ID, { description: 'Id of the document' }) id: string,
  ): Promise<PublicationChange> {
    return change(ctx, kind, id, 'moveToDraft');
  }

  @Mutation(() => PublicationChange, { description: `Archives a DRAFT, SCHEDULED or PUBLISHED document. ${EDITORS}` })
  archive(
    @Ctx() ctx: Context,
    @Arg('kind', () => PublishableKind, { description: 'Article or issue' }) kind: PublishableKind,
    @Arg('id', () => ID, { description: 'Id of the document' }) id: string,
  ): Promise<PublicationChange> {
    return change(ctx, kind, id, 'archive');
  }
}
