// GET /dev/outbox: outside production, the newest mail the outbox mailer kept (newsletter activation keys,
// one-time codes), so a developer can finish those flows with curl alone. Never registered in production,
// where the outbox may hold real customers' codes.
import { Router } from '@koa/router';
import type { Config } from '../config.js';
import { latestOutboxMessages } from '../mail/outbox.mailer.js';
import type { Store } from '../store/store.js';
import type { AppState } from './app-context.js';

const DEV_OUTBOX_PATH = '/dev/outbox';

export function devOutboxRoutes(config: Config, store: Store): Router<AppState> | null {
  if (config.isProduction) return null;
  const router = new Router<AppState>();
  router.get(DEV_OUTBOX_PATH, async (ctx) => {
    const to = typeof ctx.query.to === 'string' ? ctx.query.to : undefined;
    const asked = Number(typeof ctx.query.limit === 'string' ? ctx.query.limit : 10);
    const limit = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : 10;
    const messages = await latestOutboxMessages(store, { ...(to ? { to } : {}), limit });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = messages.map((m) => ({
      id: m._id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      createdAt: m.createdAt.toISOString(),
    }));
  });
  return router;
}
