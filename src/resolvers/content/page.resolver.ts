// Page fields that reach other objects: its issues connection.
import type { GraphQLResolveInfo } from 'graphql';
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { selectionOf } from '../../graphql/selection.js';
import type { Context } from '../../context.js';
import { pageIssues } from '../../operations/content/pages.js';
import { ConnectionArgs } from '../../schema/content/connection.args.js';
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import { Issue, IssueConnection } from '../../schema/content/issue.type.js';
import { Page } from '../../schema/content/page.type.js';

@Resolver(() => Page)
export class PageResolver {
  @FieldResolver(() => IssueConnection, {
    nullable: true,
    description:
      'Published issues, newest first (by date, then issue number); null when `first` or `after` is refused (the error says why)',
  })
  issues(
    @Root() page: Page,
    @Ctx() ctx: Context,
    @Args() args: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<Issue>> {
    return pageIssues(ctx, page.id, args, selectionOf(info));
  }
}
