// Forward pagination arguments of every content connection.
import { ArgsType, Field, Int } from 'type-graphql';

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Page size, 1 to 100' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'Cursor of the item the page starts after' })
  after?: string | null;
}
