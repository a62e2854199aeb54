// Small value objects shared by several content types.
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A rendition of an image at another size' })
export class ImageTransform {
  @Field(() => Int, { description: 'Width in pixels' })
  width!: number;

  @Field(() => Int, { description: 'Height in pixels' })
  height!: number;

  @Field({ description: 'URL of the transformed image' })
  url!: string;
}
