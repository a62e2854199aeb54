// `npm run oauth:keys -- rotate|list|retire`: the authorization server's signing keys kept in the store
// (not when OAUTH_JWKS sets them). Running services pick every change up on their poll, no restart.
//   rotate [--activate-in <seconds>] [--retire-after <seconds>]
//       adds a new ES256 and RS256 key, published at once, signing after --activate-in (default 30: many
//       poll periods, so every process publishes the key before anything is signed with it); the keys
//       they replace stay published --retire-after seconds longer (default: the longest token lifetime,
//       ID tokens' hour or ACCESS_TOKEN_TTL, plus a minute), then are dropped
//   list      the keys with their state (pending, active, previous, retired) and times
//   retire    removes retired keys (their private parts) from the store
// Output is JSON on stdout; private key material is never printed.
import { parseArgs } from 'node:util';
import type { Config } from '../src/config.js';
import {
  ID_TOKEN_TTL_SECONDS,
  keysFromEnvironment,
  keyStates,
  pruneRetiredKeys,
  rotateKeys,
  storedKeys,
} from '../src/oauth/keys.js';
import type { Store } from '../src/store/store.js';
import { CommandError, runStoreCommand, usageError } from './store-command.js';

const USAGE = `usage:
  npm run oauth:keys -- rotate [--activate-in <seconds>] [--retire-after <seconds>]
  npm run oauth:keys -- list
  npm run oauth:keys -- retire`;

type Command = { kind: 'rotate'; activateIn?: number; retireAfter?: number } | { kind: 'list' } | { kind: 'retire' };

const seconds = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d{1,7}$/.test(value)) usageError(`--${name} takes a whole number of seconds`);
  return Number(value);
};

function parseCommand(argv: string[]): Command {
  const [command, ...args] = argv;
  switch (command) {
    case 'rotate': {
      let values;
      try {
        ({ values } = parseArgs({
          args,
          options: { 'activate-in': { type: 'string' }, 'retire-after': { type: 'string' } },
        }));
      } catch (err) {
        usageError((err as Error).message);
      }
      return {
        kind: 'rotate',
        activateIn: seconds('activate-in', values['activate-in']),
        retireAfter: seconds('retire-after', values['retire-after']),
      };
    }
    case 'list':
    case 'retire':
      if (args.length > 0) usageError(`${command} takes no arguments`);
      return { kind: command };
    default:
      usageError(command ? `unknown command "${command}"` : 'a command is needed');
  }
}

async function list(store: Store): Promise<unknown> {
  return keyStates(await storedKeys(store)).map(({ jwk, state, schedule }) => ({
    kid: jwk.kid,
    alg: jwk.alg,
    state,
    ...(schedule.activateAt ? { activate_at: new Date(schedule.activateAt).toISOString() } : {}),
    ...(schedule.retireAt ? { retire_at: new Date(schedule.retireAt).toISOString() } : {}),
  }));
}

async function run(store: Store, config: Config, command: Command): Promise<void> {
  let out: unknown;
  if (command.kind === 'rotate') {
    const longest = Math.max(config.oauth.accessTokenTtl, ID_TOKEN_TTL_SECONDS) + 60;
    const added = await rotateKeys(store, {
      activateInSeconds: command.activateIn ?? 30,
      retireAfterSeconds: command.retireAfter ?? longest,
    });
    out = {
      added: added.map((k) => ({ kid: k.kid, alg: k.alg, activate_at: k.activateAt.toISOString() })),
      keys: await list(store),
    };
  } else if (command.kind === 'retire') {
    out = { removed: await pruneRetiredKeys(store), keys: await list(store) };
  } else {
    out = await list(store);
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

runStoreCommand({
  name: 'oauth:keys',
  usage: USAGE,
  parse: parseCommand,
  check(config) {
    if (keysFromEnvironment(config))
      throw new CommandError(
        'the signing keys come from OAUTH_JWKS: rotate them there (this command manages keys kept in the store)',
      );
  },
  run,
});
