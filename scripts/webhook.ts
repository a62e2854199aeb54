// `npm run webhook -- <command>`: manages webhook endpoints in the configured store (MONGODB_URI, or the
// embedded engine under DATA_DIR: stop the service first, or point both at one engine), as the GraphQL
// mutations do for an administrator. Output is JSON on stdout; a secret is printed by `create` and `rotate` only.
// The API shapes it prints are type-graphql classes: their decorators need the metadata polyfill loaded first.
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { AppError } from '../src/errors.js';
import { listDeliveries, redeliver } from '../src/operations/webhooks/deliveries.js';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookAdmin,
} from '../src/operations/webhooks/endpoints.js';
import {
  deliveriesQuerySchema,
  deliveryIdSchema,
  endpointChangesSchema,
  endpointIdSchema,
  keepPreviousSchema,
  newEndpointSchema,
} from '../src/operations/webhooks/input.js';
import { toWebhookDelivery, toWebhookEndpoint } from '../src/operations/webhooks/webhook.mapper.js';
import { CommandError, runStoreCommand, usageError } from './store-command.js';

const USAGE = `usage:
  npm run webhook -- create --url <url> --event <type>... [--description <text>]
  npm run webhook -- update <endpoint id> [--url <url>] [--event <type>]... [--description <text>] [--enable | --disable]
  npm run webhook -- delete <endpoint id>
  npm run webhook -- rotate <endpoint id> [--keep-previous <seconds>]
  npm run webhook -- list
  npm run webhook -- deliveries <endpoint id> [--status pending|sending|delivered|failed] [--first <n>]
  npm run webhook -- redeliver <delivery id>`;

type Command =
  | { action: 'create'; input: z.output<typeof newEndpointSchema> }
  | { action: 'update'; id: string; changes: z.output<typeof endpointChangesSchema> }
  | { action: 'delete' | 'redeliver'; id: string }
  | { action: 'rotate'; id: string; keep: number }
  | { action: 'list' }
  | { action: 'deliveries'; query: z.output<typeof deliveriesQuerySchema> };

function valid<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  usageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; '));
}

function parse(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      event: { type: 'string', multiple: true },
      description: { type: 'string' },
      enable: { type: 'boolean' },
      disable: { type: 'boolean' },
      'keep-previous': { type: 'string' },
      status: { type: 'string' },
      first: { type: 'string' },
    },
  });
  const [action, id, ...rest] = positionals;
  if (rest.length) usageError(`unexpected arguments: ${rest.join(' ')}`);
  const needsId = (): string => valid(endpointIdSchema, id);
  switch (action) {
    case 'create':
      return { action, input: valid(newEndpointSchema, { ...values, eventTypes: values.event ?? [] }) };
    case 'update':
      if (values.enable && values.disable) usageError('--enable or --disable, not both');
      return {
        action,
        id: needsId(),
        changes: valid(endpointChangesSchema, {
          url: values.url,
          description: values.description,
          eventTypes: values.event,
          enabled: values.enable ? true : values.disable ? false : undefined,
        }),
      };
    case 'delete':
      return { action, id: needsId() };
    case 'rotate': {
      const keep = values['keep-previous'];
      return { action, id: needsId(), keep: valid(keepPreviousSchema, keep === undefined ? undefined : Number(keep)) };
    }
    case 'list':
      return { action };
    case 'deliveries':
      return {
        action,
        query: valid(deliveriesQuerySchema, {
          endpointId: id,
          status: values.status,
          first: values.first === undefined ? undefined : Number(values.first),
        }),
      };
    case 'redeliver':
      return { action, id: valid(deliveryIdSchema, id) };
    default:
      return usageError(action ? `unknown command "${action}"` : 'a command is needed');
  }
}

async function run(admin: WebhookAdmin, command: Command): Promise<unknown> {
  switch (command.action) {
    case 'create': {
      const { endpoint, secret } = await createEndpoint(admin, command.input);
      return { endpoint: toWebhookEndpoint(endpoint), secret };
    }
    case 'update':
      return toWebhookEndpoint(await updateEndpoint(admin, command.id, command.changes));
    case 'delete':
      return { deleted: await deleteEndpoint(admin, command.id) };
    case 'rotate': {
      const { endpoint, secret } = await rotateSecret(admin, command.id, command.keep);
      return { endpoint: toWebhookEndpoint(endpoint), secret };
    }
    case 'list':
      return (await listEndpoints(admin)).map((doc) => toWebhookEndpoint(doc));
    case 'deliveries':
      return (await listDeliveries(admin, command.query)).map(toWebhookDelivery);
    case 'redeliver':
      return toWebhookDelivery(await redeliver(admin, command.id));
  }
}

runStoreCommand({
  name: 'webhook',
  usage: USAGE,
  parse,
  async run(store, config, command) {
    try {
      const result = await run({ store, config: config.webhooks, now: new Date() }, command);
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } catch (err) {
      if (err instanceof AppError)
        throw new CommandError(`${err.message}${err.errors ? `: ${err.errors.map((e) => e.message).join('; ')}` : ''}`);
      throw err;
    }
  },
});
