// POST /cms/channel/{channel_id}/activate_subscription: validate, then the same operation as the
// activateNewsletterSubscription mutation.
import type { Router } from '@koa/router';
import { withContext, jsonBody, type AppDeps, type AppState } from '../http/app-context.js';
import { parseOr400 } from '../validation.js';
import { activateSubscription } from '../operations/newsletter/activate.js';
import { activateSubscriptionBody, activateSubscriptionPath } from './activate-subscription.schema.js';

export const ACTIVATE_SUBSCRIPTION_PATH = '/cms/channel/:channel_id/activate_subscription';

export function registerActivateSubscriptionRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.post(ACTIVATE_SUBSCRIPTION_PATH, jsonBody(), withContext(deps), async (ctx) => {
    const { channel_id: channelId } = parseOr400(activateSubscriptionPath, ctx.params, 'path');
    const body = parseOr400(activateSubscriptionBody, ctx.request.body ?? null, 'body');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await activateSubscription(ctx.state.context!, { channelId, email: body.email, key: body.key });
  });
}
