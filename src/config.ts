// Environment -> typed, validated configuration. The one place that reads process.env.
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://').optional(),
  MONGODB_DB: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be 1-63 of [A-Za-z0-9_-]').default('gateway'),
  STORE: z.enum(['disk', 'memory']).default('disk'),
  DATA_DIR: z.string().min(1).default('./data'),
  SEED: z.enum(['demo', 'none']).default('demo'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  STORE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  INTROSPECTION: bool.optional(),
  PLAYGROUND: bool.optional(),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(30),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(50_000),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5_000),
  CORS_ORIGINS: z.string().default(''),
});

export type RawConfig = z.infer<typeof schema>;

export interface Config {
  env: RawConfig['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string;
  logLevel: RawConfig['LOG_LEVEL'];
  store: {
    /** Unset: the embedded engine runs in-process. */
    uri?: string;
    dbName: string;
    mode: RawConfig['STORE'];
    dataDir: string;
    timeoutMs: number;
  };
  seed: RawConfig['SEED'];
  shutdownTimeoutMs: number;
  introspection: boolean;
  playground: boolean;
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; maxTokens: number; introspection: boolean };
  /** Origins allowed to call the API from a browser; `*` allows any. */
  corsOrigins: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const c = parsed.data;
  const isProduction = c.NODE_ENV === 'production';
  return {
    env: c.NODE_ENV,
    isProduction,
    host: c.HOST,
    port: c.PORT,
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    logLevel: c.LOG_LEVEL,
    store: { uri: c.MONGODB_URI, dbName: c.MONGODB_DB, mode: c.STORE, dataDir: c.DATA_DIR, timeoutMs: c.STORE_TIMEOUT_MS },
    seed: c.SEED,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    introspection: c.INTROSPECTION ?? true,
    playground: c.PLAYGROUND ?? !isProduction,
    graphql: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      maxAliases: c.GRAPHQL_MAX_ALIASES,
      maxCost: c.GRAPHQL_MAX_COST,
      maxTokens: c.GRAPHQL_MAX_TOKENS,
      introspection: c.INTROSPECTION ?? true,
    },
    corsOrigins: c.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
  };
}
