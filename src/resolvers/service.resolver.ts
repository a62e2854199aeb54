// Root query `service`: the gateway's version, uptime and store status.
import { Ctx, Directive, Query, Resolver } from 'type-graphql';
import type { Context } from '../context.js';
import { ServiceInfo } from '../schema/types/service.type.js';
import { serviceName, serviceVersion } from '../version.js';

@Resolver()
export class ServiceResolver {
  @Directive('@cacheControl(maxAge: 0)')
  @Query(() => ServiceInfo, { description: "The gateway's version and the reachability of its store" })
  async service(@Ctx() ctx: Context): Promise<ServiceInfo> {
    return {
      name: serviceName,
      version: serviceVersion,
      uptimeSeconds: Math.floor(process.uptime()),
      store: await ctx.store.status(),
    };
  }
}
