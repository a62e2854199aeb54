// Request and response of POST /cms/channel/{channel_id}/activate_subscription (docs/api.md).
import { z } from 'zod';
import { activateSubscriptionBody, channelIdSchema } from '../operations/newsletter/input.js';

export const activateSubscriptionPath = z.strictObject({ channel_id: channelIdSchema });
export { activateSubscriptionBody };

export const activationResult = z
  .object({
    error: z.boolean().describe('false: the subscription is active; true: the key did not activate anything'),
    message: z.string().optional().describe('Present when error is true: "Invalid or expired activation key"'),
  })
  .describe('Activation result');
