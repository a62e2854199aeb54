// POST /cms/channel/{channel_id}/activate_subscription (docs/api.md): the shim's path and body
// schemas and its Activation result; the key is the credential, so the operation is anonymous.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ACTIVATE_SUBSCRIPTION_PATH } from '../../rest/activate-subscription.route.js';
import {
  activateSubscriptionBody,
  activateSubscriptionPath,
  activationResult,
} from '../../rest/activate-subscription.schema.js';
import {
  badRequest,
  bodyProblems,
  jsonResponse,
  JSON_TYPE,
  problemResponse,
  serverProblems,
  unauthorized,
} from '../responses.js';
import { named } from '../zod.js';
import { toOpenApiPath } from './params.js';

export function registerNewsletterPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: toOpenApiPath(ACTIVATE_SUBSCRIPTION_PATH),
    operationId: 'activateNewsletterSubscription',
    tags: ['Newsletter'],
    summary: 'Activate a newsletter subscription',
    description:
      'Activates the pending subscription of this channel and e-mail whose key matches (repeating it is safe). A wrong, expired or unknown key and an unknown e-mail all get the same `{ "error": true }` answer, so nobody learns which addresses are subscribed. Pending subscriptions come from the GraphQL mutation `subscribeToNewsletter`, which mails the key.',
    security: [],
    request: {
      params: activateSubscriptionPath,
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: named(activateSubscriptionBody, 'ActivationRequest'),
            example: { email: 'reader@example.com', key: 'k3Y-from-the-mail' },
          },
        },
      },
    },
    responses: {
      200: jsonResponse('Activation result', named(activationResult, 'ActivationResult'), {
        headers: { 'Cache-Control': 'NoStore' },
        examples: {
          activated: { summary: 'Activated (or already active with this key)', value: { error: false } },
          refused: {
            summary: 'Wrong, expired or unknown key, or no such subscription',
            value: { error: true, message: 'Invalid or expired activation key' },
          },
        },
      }),
      400: badRequest(
        'A malformed body, an invalid e-mail, unknown fields, or a channel id that is not 1 to 18 digits',
      ),
      401: unauthorized('An `Authorization` header was sent and is not a valid bearer token (none is needed)'),
      404: problemResponse(404, {
        description: 'Unknown channel',
        codes: ['CHANNEL_NOT_FOUND'],
        details: { CHANNEL_NOT_FOUND: 'No channel 42' },
      }),
      ...bodyProblems(),
      429: problemResponse(429, {
        description: 'Too many attempts for this channel and e-mail; try again after `Retry-After`',
        codes: ['RATE_LIMITED'],
        headers: { 'Retry-After': 'RetryAfter' },
      }),
      ...serverProblems(),
    },
  });
}
