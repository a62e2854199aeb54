// The signed-in customer a bearer token stands for (CONTRACT.md §5 `viewer`). Other domains add their
// fields through field resolvers on this type (`@Resolver(() => Viewer)`), not by redefining it.
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The signed-in customer; null for anonymous requests' })
export class Viewer {
  @Field(() => ID)
  customerId!: string;
}
