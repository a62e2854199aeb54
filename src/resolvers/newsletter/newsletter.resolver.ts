// Newsletter mutations: thin adapters from arguments to the operations the REST shim shares.
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { parseOr400 } from '../../validation.js';
import { activateSubscription } from '../../operations/newsletter/activate.js';
import { activationKeySchema, channelIdSchema, emailSchema } from '../../operations/newsletter/input.js';
import { subscribeToNewsletter } from '../../operations/newsletter/subscribe.js';
import { ActivationResultType, SubscribeResultType } from '../../schema/newsletter/newsletter.type.js';

const subscribeArgs = z.object({ channelId: channelIdSchema, email: emailSchema });
const activateArgs = subscribeArgs.extend({ key: activationKeySchema });

const ACCEPTED = 'If the address can receive mail, an activation link is on its way';

@Resolver()
export class NewsletterResolver {
  @Mutation(() => SubscribeResultType, {
    description:
      'Starts a subscription: mails an activation link valid for 7 days; at most 3 requests per channel and address an hour',
  })
  async subscribeToNewsletter(
    @Ctx() ctx: Context,
    @Arg('channelId', () => ID, { description: 'Id of the channel: 1 to 18 decimal digits' }) channelId: string,
    @Arg('email', { description: 'E-mail address, at most 254 characters; trimmed and lower-cased' }) email: string,
  ): Promise<SubscribeResultType> {
    await subscribeToNewsletter(ctx, parseOr400(subscribeArgs, { channelId, email }, 'arguments'));
    return { accepted: true, message: ACCEPTED };
  }

  @Mutation(() => ActivationResultType, {
    description:
      'Activates a subscription with the key from its activation mail; at most 10 attempts per channel and address in 15 minutes',
  })
  async activateNewsletterSubscription(
    @Ctx() ctx: Context,
    @Arg('channelId', () => ID, { description: 'Id of the channel: 1 to 18 decimal digits' }) channelId: string,
    @Arg('email', { description: 'The e-mail address the activation mail was sent to' }) email: string,
    @Arg('key', { description: 'The activation key from the activation mail' }) key: string,
  ): Promise<ActivationResultType> {
    const result = await activateSubscription(ctx, parseOr400(activateArgs, { channelId, email, key }, 'arguments'));
    return { error: result.error, message: result.error ? result.message : null };
  }
}
