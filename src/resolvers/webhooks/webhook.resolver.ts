// Webhook endpoints and their delivery log, for administrators: thin adapters from arguments to the use cases.
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { parseOr400 } from '../../validation.js';
import { requireWebhookAdmin } from '../../operations/webhooks/admin.js';
import { listDeliveries, redeliver } from '../../operations/webhooks/deliveries.js';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../../operations/webhooks/endpoints.js';
import {
  deliveriesQuerySchema,
  deliveryIdSchema,
  endpointChangesSchema,
  endpointIdSchema,
  keepPreviousSchema,
  newEndpointSchema,
} from '../../operations/webhooks/input.js';
import { toWebhookDelivery, toWebhookEndpoint } from '../../operations/webhooks/webhook.mapper.js';
import { WebhookEndpointChanges, WebhookEndpointInput } from '../../schema/webhooks/webhook.input.js';
import {
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointSecret,
} from '../../schema/webhooks/webhook.type.js';

const ENDPOINT_ID = 'Id of the webhook endpoint';
const withSecret = (result: Awaited<ReturnType<typeof createEndpoint>>, now: Date): WebhookEndpointSecret => ({
  endpoint: toWebhookEndpoint(result.endpoint, now),
  secret: result.secret,
});

@Resolver()
export class WebhookResolver {
  @Query(() => [WebhookEndpoint], { description: 'Every webhook endpoint, oldest first (administrators only)' })
  async webhookEndpoints(@Ctx() ctx: Context): Promise<WebhookEndpoint[]> {
    const admin = await requireWebhookAdmin(ctx);
    return (await listEndpoints(admin)).map((doc) => toWebhookEndpoint(doc, ctx.now));
  }

  @Query(() => [WebhookDelivery], {
    description: "An endpoint's delivery log, newest first (administrators only)",
  })
  async webhookDeliveries(
    @Ctx() ctx: Context,
    @Arg('endpointId', () => ID, { description: ENDPOINT_ID }) endpointId: string,
    @Arg('status', () => WebhookDeliveryStatus, { nullable: true, description: 'Only deliveries in this state' })
    status: WebhookDeliveryStatus | null,
    @Arg('first', () => Int, { nullable: true, description: 'How many, 1 to 100; 20 when left out' })
    first: number | null,
  ): Promise<WebhookDelivery[]> {
    const query = parseOr400(deliveriesQuerySchema, { endpointId, status, first: first ?? undefined }, 'arguments');
    const admin = await requireWebhookAdmin(ctx);
    return (await listDeliveries(admin, query)).map(toWebhookDelivery);
  }

  @Mutation(() => WebhookEndpointSecret, {
    description: 'Creates a webhook endpoint and its signing secret (administrators only)',
  })
  async createWebhookEndpoint(
    @Ctx() ctx: Context,
    @Arg('input', () => WebhookEndpointInput, { description: 'The endpoint' }) input: WebhookEndpointInput,
  ): Promise<WebhookEndpointSecret> {
    const parsed = parseOr400(newEndpointSchema, { ...input }, 'arguments');
    const admin = await requireWebhookAdmin(ctx);
    return withSecret(await createEndpoint(admin, parsed), ctx.now);
  }

  @Mutation(() => WebhookEndpoint, { description: 'Changes a webhook endpoint (administrators only)' })
  async updateWebhookEndpoint(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: ENDPOINT_ID }) id: string,
    @Arg('changes', () => WebhookEndpointChanges, { description: 'What to change' }) changes: WebhookEndpointChanges,
  ): Promise<WebhookEndpoint> {
    const args = parseOr400(
      z.object({ id: endpointIdSchema, changes: endpointChangesSchema }),
      { id, changes: { ...changes } },
      'arguments',
    );
    const admin = await requireWebhookAdmin(ctx);
    return toWebhookEndpoint(await updateEndpoint(admin, args.id, args.changes), ctx.now);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes a webhook endpoint and its delivery log; false when there was none (administrators only)',
  })
  async deleteWebhookEndpoint(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: ENDPOINT_ID }) id: string,
  ): Promise<boolean> {
    const parsed = parseOr400(endpointIdSchema, id, 'arguments');
    const admin = await requireWebhookAdmin(ctx);
    return deleteEndpoint(admin, parsed);
  }

  @Mutation(() => WebhookEndpointSecret, {
    description:
      'Gives an endpoint a new signing secret; the old one keeps signing beside it for a while (administrators only)',
  })
  async rotateWebhookSecret(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: ENDPOINT_ID }) id: string,
    @Arg('keepPreviousSeconds', () => Int, {
      nullable: true,
      description: 'How long the old secret keeps signing, 0 to 604,800 seconds; a day when left out',
    })
    keepPreviousSeconds: number | null,
  ): Promise<WebhookEndpointSecret> {
    const args = parseOr400(
      z.object({ id: endpointIdSchema, keep: keepPreviousSchema }),
      { id, keep: keepPreviousSeconds ?? undefined },
      'arguments',
    );
    const admin = await requireWebhookAdmin(ctx);
    return withSecret(await rotateSecret(admin, args.id, args.keep), ctx.now);
  }

  @Mutation(() => WebhookDelivery, {
    description:
      'Sends a delivered or failed event to its endpoint again, with the same webhook-id (administrators only)',
  })
  async redeliverWebhook(
    @Ctx() ctx: Context,
    @Arg('deliveryId', () => ID, { description: 'Id of the delivery, from webhookDeliveries' }) deliveryId: string,
  ): Promise<WebhookDelivery> {
    const parsed = parseOr400(deliveryIdSchema, deliveryId, 'arguments');
    const admin = await requireWebhookAdmin(ctx);
    return toWebhookDelivery(await redeliver(admin, parsed));
  }
}
