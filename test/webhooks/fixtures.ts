// What the webhook tests share: an administrator's token, endpoint mutations over GraphQL, and writes to the
// store the way another system (or the CMS) makes them, which the change stream turns into events.
import type { Db } from 'mongodb';
import { changeRole } from '../../src/store/customers/roles.js';
import type { TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';

export async function adminHeaders(svc: TestService): Promise<Record<string, string>> {
  const admin = await tokenFor(svc);
  await changeRole(svc.store, 'grant', 'admin', admin.email);
  return bearer(admin.accessToken);
}

const ENDPOINT_FIELDS = 'id url eventTypes enabled disabledReason failingSince previousSecretExpiresAt';

export async function createEndpoint(
  svc: TestService,
  headers: Record<string, string>,
  input: { url: string; eventTypes: string[]; description?: string },
): Promise<{ id: string; secret: string }> {
  const res = await svc.gql<{ createWebhookEndpoint: { endpoint: { id: string }; secret: string } }>(
    `mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } } }`,
    { input },
    headers,
  );
  if (!res.body.data) throw new Error(`createWebhookEndpoint: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.createWebhookEndpoint.endpoint.id, secret: res.body.data.createWebhookEndpoint.secret };
}

export interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  status: string;
  attempts: number;
  lastAttempt: { responseStatus: number | null; error: string | null; durationMs: number } | null;
  log: Array<{ responseStatus: number | null; error: string | null }>;
}

export async function deliveriesOf(svc: TestService, headers: Record<string, string>, endpointId: string) {
  const res = await svc.gql<{ webhookDeliveries: DeliveryView[] }>(
    `query($id: ID!) { webhookDeliveries(endpointId: $id, first: 100) {
       id eventId type status attempts lastAttempt { responseStatus error durationMs } log { responseStatus error } } }`,
    { id: endpointId },
    headers,
  );
  if (!res.body.data) throw new Error(`webhookDeliveries: ${JSON.stringify(res.body)}`);
  return res.body.data.webhookDeliveries;
}

/** Polls until `check` returns a value (not undefined); for state the service reaches in the background. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('eventually: the condition was not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An article as the CMS stores it, with the fields the events carry. */
export function article(id: string, status: 'draft' | 'published', title = `Article ${id}`) {
  return { _id: id, title, slug: `article-${id}`, absoluteUrl: `https://news.example/${id}`, status, viewsCount: 0 };
}

export const articles = (db: Db) => db.collection<{ _id: string } & Record<string, unknown>>('articles');
