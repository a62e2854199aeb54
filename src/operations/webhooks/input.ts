// What the webhook mutations and queries accept (GraphQL arguments and the CLI alike).
import { z } from 'zod';
import { EVENT_TYPE_NAMES } from '../../events/event-types.js';

const URL_MAX = 2_048;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const url = z
  .string()
  .trim()
  .min(1)
  .max(URL_MAX, `at most ${URL_MAX} characters`)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http or https URL');
const description = z.string().trim().max(500, 'at most 500 characters');
const eventTypes = z
  .array(z.enum(EVENT_TYPE_NAMES, { error: `must be one of ${EVENT_TYPE_NAMES.join(', ')}` }))
  .min(1, 'at least one event type')
  .max(EVENT_TYPE_NAMES.length)
  .transform((types) => [...new Set(types)]);

export const endpointIdSchema = z.string().regex(ID, '1 to 64 characters of A-Z a-z 0-9 _ -');

export const newEndpointSchema = z.object({ url, description: description.nullish(), eventTypes });
export type NewEndpoint = z.output<typeof newEndpointSchema>;

export const endpointChangesSchema = z.object({
  url: url.nullish(),
  description: description.nullish(),
  eventTypes: eventTypes.nullish(),
  enabled: z.boolean().nullish(),
});
export type EndpointChanges = z.output<typeof endpointChangesSchema>;

/** How long a rotated-out secret keeps signing: up to a week, a day unless said otherwise. */
export const keepPreviousSchema = z.number().int().min(0).max(604_800).default(86_400);

export const deliveryIdSchema = z.string().regex(/^msg_[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,64}$/, 'not a delivery id');

export const deliveriesQuerySchema = z.object({
  endpointId: endpointIdSchema,
  status: z.enum(['pending', 'sending', 'delivered', 'failed']).nullish(),
  first: z.number().int().min(1).max(100).default(20),
});
