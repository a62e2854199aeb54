// The service's own status: its version, uptime and whether the store answers.
import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Reachability of the document store behind the service' })
export class StoreStatusType {
  @Field({ description: 'Whether the store answered a ping' })
  reachable!: boolean;

  @Field(() => Float, { nullable: true, description: 'Round trip of the ping in milliseconds; null when unreachable' })
  latencyMs!: number | null;

  @Field({ description: 'True when the service runs its embedded MongoDB-compatible engine in-process' })
  embedded!: boolean;
}

@ObjectType({ description: 'The gateway itself' })
export class ServiceInfo {
  @Field({ description: 'Name of the service' })
  name!: string;

  @Field({ description: 'Version of the running build (package.json)' })
  version!: string;

  @Field(() => Int, { description: 'Seconds since the process started' })
  uptimeSeconds!: number;

  @Field(() => StoreStatusType, { description: 'Reachability of the document store' })
  store!: StoreStatusType;
}
