// What the store-managing commands (`oauth:keys`, `oauth:client`) share: failing with their usage, loading
// the configuration, opening the configured store for one command and always closing it.
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { Store } from '../src/store/store.js';

/** A mistake the user can fix: its message is printed, with the usage when it is a usage mistake. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export interface StoreCommand<C> {
  /** Used in the last-resort failure line, e.g. `oauth:keys`. */
  name: string;
  usage: string;
  /** Parses the command line completely before anything touches the store. */
  parse(argv: string[]): C;
  /** Refuses a configuration the command cannot work with, before the store is opened. */
  check?(config: Config): void;
  run(store: Store, config: Config, command: C): Promise<void>;
  /** Errors of the command's own domain that are the user's to fix (exit 1, no usage). */
  isUserError?(err: unknown): err is Error;
}

/** A usage mistake: the command stops with `message` and its usage, exit code 2. */
export function usageError(message: string): never {
  throw new CommandError(message, 2);
}

export function runStoreCommand<C>(spec: StoreCommand<C>): void {
  const fail = (message: string, code: number): never => {
    process.stderr.write(`${message}\n${code === 2 ? `${spec.usage}\n` : ''}`);
    process.exit(code);
  };
  const main = async (): Promise<void> => {
    const command = spec.parse(process.argv.slice(2));
    const config = loadConfig();
    spec.check?.(config);
    const store = await Store.open(config.store, createLogger('warn'));
    try {
      await spec.run(store, config, command);
    } finally {
      await store.close();
    }
  };
  main().catch((err: unknown) => {
    if (err instanceof CommandError) fail(err.message, err.exitCode);
    if (err instanceof ConfigError || spec.isUserError?.(err)) fail((err as Error).message, 1);
    fail(`${spec.name} failed: ${err instanceof Error ? err.message : String(err)}`, 1);
  });
}
