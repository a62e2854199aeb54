// `npm run role -- grant|revoke <role> <email>`: gives a customer a staff role (`editor` posts to live blogs) or
// takes it away, in the configured store (MONGODB_URI, or the embedded engine under DATA_DIR: stop the service
// first, or point both at one engine). Takes effect at once, also for tokens already issued.
import { changeRole, RoleError, ROLES } from '../src/store/customers/roles.js';
import { runStoreCommand, usageError } from './store-command.js';

const USAGE = `usage:
  npm run role -- grant <role> <email>
  npm run role -- revoke <role> <email>
      roles: ${ROLES.join(', ')}`;

interface Command {
  action: 'grant' | 'revoke';
  role: string;
  email: string;
}

function parse(argv: string[]): Command {
  const [action, role, email, ...rest] = argv;
  if (action !== 'grant' && action !== 'revoke')
    usageError(action ? `unknown command "${action}"` : 'a command is needed');
  if (!role || !email || rest.length) usageError(`${action} needs a role and an e-mail address`);
  return { action, role, email };
}

runStoreCommand({
  name: 'role',
  usage: USAGE,
  parse,
  async run(store, _config, { action, role, email }) {
    const change = await changeRole(store, action, role, email);
    process.stdout.write(
      `${JSON.stringify({ customer: change.email, roles: change.roles, changed: change.changed })}\n`,
    );
  },
  isUserError: (err): err is RoleError => err instanceof RoleError,
});
