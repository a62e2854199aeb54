// The signed-in customer a bearer token stands for (the `viewer` query). Other domains add their
// fields through field resolvers on this type (`@Resolver(() => Viewer)`), not by redefining it.
import { Directive, Field, ID, ObjectType } from 'type-graphql';

@Directive('@cacheControl(scope: PRIVATE)') // per viewer: never shared between readers
@ObjectType({ description: 'The signed-in customer; null for anonymous requests' })
export class Viewer {
  @Field(() => ID, { description: 'Id of the signed-in customer' })
  customerId!: string;
}
