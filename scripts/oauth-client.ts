// `npm run oauth:client -- add|list|remove ...`: manages the OAuth clients in the configured store
// (MONGODB_URI, or the embedded engine under DATA_DIR: stop the service first, or point both at one engine).
//   add --name <text> [--id <client_id>] [--public] [--grant <type>]... [--redirect-uri <uri>]... [--scope <scope>]...
//   list
//   remove <client_id>
// Output is JSON on stdout; a confidential client's secret is printed once, by `add`, and never stored.
import { parseArgs } from 'node:util';
import { ClientInputError, createClient, SUPPORTED_GRANTS, type NewClient } from '../src/oauth/clients.js';
import { listClients, removeClient } from '../src/store/oauth/clients.store.js';
import type { ClientDoc } from '../src/store/oauth/oauth.docs.js';
import type { Store } from '../src/store/store.js';
import { CommandError, runStoreCommand, usageError } from './store-command.js';

const USAGE = `usage:
  npm run oauth:client -- add --name <text> [--id <client_id>] [--public] [--grant <type>]... [--redirect-uri <uri>]... [--scope <scope>]...
      grant types: ${SUPPORTED_GRANTS.join(', ')} (default: authorization_code refresh_token)
      --public: no secret, PKCE only (single-page and native apps); otherwise a secret is generated and shown once
  npm run oauth:client -- list
  npm run oauth:client -- remove <client_id>`;

const present = (c: ClientDoc) => ({
  client_id: c._id,
  name: c.name,
  kind: c.kind,
  first_party: c.firstParty,
  grant_types: c.grantTypes,
  redirect_uris: c.redirectUris,
  scopes: c.scopes,
  created_at: c.createdAt.toISOString(),
});

type Command = { kind: 'add'; input: NewClient } | { kind: 'list' } | { kind: 'remove'; id: string };

/** Parses the command line completely before anything touches the store. */
function parseCommand(argv: string[]): Command {
  const [command, ...args] = argv;
  switch (command) {
    case 'add': {
      let values;
      try {
        ({ values } = parseArgs({
          args,
          options: {
            name: { type: 'string' },
            id: { type: 'string' },
            public: { type: 'boolean', default: false },
            grant: { type: 'string', multiple: true },
            'redirect-uri': { type: 'string', multiple: true },
            scope: { type: 'string', multiple: true },
          },
        }));
      } catch (err) {
        usageError((err as Error).message);
      }
      if (!values.name) usageError('add needs --name');
      return {
        kind: 'add',
        input: {
          ...(values.id ? { clientId: values.id } : {}),
          name: values.name,
          kind: values.public ? 'public' : 'confidential',
          grantTypes: values.grant ?? ['authorization_code', 'refresh_token'],
          redirectUris: values['redirect-uri'] ?? [],
          ...(values.scope ? { scopes: values.scope.flatMap((s) => s.split(/[\s,]+/)).filter(Boolean) } : {}),
        },
      };
    }
    case 'list':
      return { kind: 'list' };
    case 'remove':
      if (!args[0]) usageError('remove needs a client_id');
      return { kind: 'remove', id: args[0] };
    default:
      usageError(command ? `unknown command "${command}"` : 'a command is needed');
  }
}

async function run(store: Store, command: Command): Promise<void> {
  if (command.kind === 'add') {
    const { client, secret } = await createClient(store, command.input);
    process.stdout.write(
      `${JSON.stringify({ ...present(client), ...(secret ? { client_secret: secret } : {}) }, null, 2)}\n`,
    );
    if (secret) process.stderr.write('The client secret is shown only now; only its hash is stored.\n');
  } else if (command.kind === 'list') {
    process.stdout.write(`${JSON.stringify((await listClients(store)).map(present), null, 2)}\n`);
  } else {
    if (!(await removeClient(store, command.id))) throw new CommandError(`no client "${command.id}"`);
    process.stdout.write(`${JSON.stringify({ removed: command.id })}\n`);
  }
}

runStoreCommand({
  name: 'oauth:client',
  usage: USAGE,
  parse: parseCommand,
  run: (store, _config, command) => run(store, command),
  isUserError: (err): err is ClientInputError => err instanceof ClientInputError,
});
