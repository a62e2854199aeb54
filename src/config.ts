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
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  MONGODB_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be 1-63 of [A-Za-z0-9_-]')
    .default('gateway'),
  STORE: z.enum(['disk', 'memory']).default('disk'),
  DATA_DIR: z.string().min(1).default('./data'),
  // Default: demo data outside production only (a production store is never filled with it unasked).
  SEED: z.enum(['demo', 'none']).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  STORE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  ENGINE_WORKER: bool.optional(),
  INTROSPECTION: bool.optional(),
  PLAYGROUND: bool.optional(),
  API_DOCS: bool.optional(),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(30),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(50_000),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5_000),
  TRUSTED_DOCUMENTS: z.enum(['off', 'allow', 'enforce']).default('allow'),
  CORS_ORIGINS: z.string().default(''),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  METRICS: bool.optional(),
  CACHE_MAX_AGE: z.coerce.number().int().min(0).max(86_400).default(60),
  RESPONSE_CACHE_MB: z.coerce.number().int().min(0).max(16_384).default(64),
  RESPONSE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(604_800).default(600),
  READY_PARTS_MB: z.coerce.number().int().min(0).max(16_384).default(64),
  // A CDN in front (src/http/cdn-headers.ts, src/events/purger.ts).
  CDN_MAX_AGE: z.coerce.number().int().min(0).max(31_536_000).optional(),
  CDN_STALE_WHILE_REVALIDATE: z.coerce.number().int().min(0).max(86_400).default(30),
  CDN_PURGE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CDN_PURGE_WINDOW_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  CDN_PURGE_PROVIDER: z.enum(['varnish', 'fastly', 'cloudflare']).default('varnish'),
  CDN_PURGE_TOKEN: z.string().min(1).optional(),
  LIVE_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(1_000).default(20),
  LIVE_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1_024).max(16_777_216).default(65_536),
  LIVE_KEEPALIVE_MS: z.coerce.number().int().min(1_000).max(600_000).default(12_000),
  LIVE_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  LIVE_MAX_BUFFERED_BYTES: z.coerce.number().int().min(1_024).max(1_073_741_824).default(1_048_576),
  LIVE_CLOSE_GRACE_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  NEWSLETTER_ACTIVATION_URL: z.url().optional(),
  // OAuth 2.0 (src/oauth). Keys: a private JWKS as JSON and comma-separated cookie keys; unset, they are
  // generated on first start and kept in the store.
  API_AUDIENCE: z.url().optional(),
  OAUTH_JWKS: z.string().refine(isJwks, 'must be a JSON object {"keys":[...private JWKs...]}').optional(),
  CURSOR_KEYS: z
    .string()
    .refine((v) => v.split(',').every((k) => k.trim().length >= 32), 'each comma-separated key needs 32+ characters')
    .optional(),
  // The Apollo Federation subgraph endpoint (/graphql/subgraph): served only when set, to callers sending it.
  SUBGRAPH_SECRET: z.string().min(32, 'needs 32+ characters').optional(),
  OAUTH_COOKIE_KEYS: z
    .string()
    .refine((v) => v.split(',').every((k) => k.trim().length >= 32), 'each comma-separated key needs 32+ characters')
    .optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(3_600).max(31_536_000).default(2_592_000),
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(120).default(10),
  OAUTH_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8).max(4_194_304).optional(),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).max(20).optional(),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  LOGIN_MAX_UNKNOWN_DEVICE_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(50),
  OTP_MAX_REQUESTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000).default(10),
  GOOGLE_ISSUER: z.string().min(1).default('https://accounts.google.com'),
  GOOGLE_AUDIENCE: z.string().min(1).optional(),
  GOOGLE_JWKS_URI: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  FACEBOOK_ISSUER: z.string().min(1).default('https://www.facebook.com'),
  FACEBOOK_AUDIENCE: z.string().min(1).optional(),
  FACEBOOK_JWKS_URI: z.url().default('https://limited.facebook.com/.well-known/oauth/openid/jwks/'),
  APPLE_ISSUER: z.string().min(1).default('https://appleid.apple.com'),
  APPLE_AUDIENCE: z.string().min(1).optional(),
  APPLE_JWKS_URI: z.url().default('https://appleid.apple.com/auth/keys'),
  // Mail (src/mail): SMTP when set; unset, mail goes to the outbox collection and the log.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Gateway <no-reply@localhost>'),
  // Webhooks (src/events).
  WEBHOOKS: bool.optional(),
  WEBHOOK_ALLOW_TARGETS: z.string().default(''),
  WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(5_000),
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  WEBHOOK_RETRY_FOR_MS: z.coerce.number().int().min(0).max(604_800_000).default(86_400_000),
  WEBHOOK_DISABLE_AFTER_MS: z.coerce.number().int().min(0).max(2_592_000_000).default(432_000_000),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  WEBHOOK_KEEP_FOR_MS: z.coerce.number().int().min(0).max(31_536_000_000).default(604_800_000),
});

function isJwks(raw: string): boolean {
  try {
    const parsed = JSON.parse(raw) as { keys?: unknown };
    return Array.isArray(parsed.keys) && parsed.keys.length > 0;
  } catch {
    return false;
  }
}

export type ThirdPartyProvider = 'google' | 'facebook' | 'apple';

interface ThirdPartyConfig {
  issuer: string;
  /** Accepted `aud` values (comma-separated in the environment: one per app or platform). */
  audiences: string[];
  jwksUri: string;
}

function thirdParty(issuer: string, audience: string | undefined, jwksUri: string): ThirdPartyConfig | undefined {
  if (!audience) return undefined;
  return {
    issuer,
    audiences: audience
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    jwksUri,
  };
}

type RawConfig = z.infer<typeof schema>;

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
    /** The embedded engine on a thread of its own (default) rather than in the service's event loop. */
    engineThread: boolean;
    dbName: string;
    mode: RawConfig['STORE'];
    dataDir: string;
    timeoutMs: number;
  };
  seed: RawConfig['SEED'];
  shutdownTimeoutMs: number;
  introspection: boolean;
  playground: boolean;
  /** The Swagger UI viewer at /docs (the OpenAPI document at /openapi.json is always served). */
  apiDocs: boolean;
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; maxTokens: number; introspection: boolean };
  /**
   * Documents named by id (docs/api.md, "Trusted documents"): `off` refuses ids, `allow` runs registered ids and
   * any document sent, `enforce` runs only the documents registered for the caller's client.
   */
  trustedDocuments: RawConfig['TRUSTED_DOCUMENTS'];
  /** Origins allowed to call the API from a browser; `*` allows any. */
  corsOrigins: string[];
  /**
   * Reverse proxies in front of the service that append to X-Forwarded-For (0: none, the socket's address is
   * the client). The client IP is then the entry that many places from the right: what the outermost trusted
   * proxy saw, which a client cannot forge by sending its own header.
   */
  trustProxyHops: number;
  /** Keys connection cursors are signed with (first signs, all verify); unset: generated and kept in the store. */
  cursorKeys?: string[];
  /** The shared secret a supergraph router sends in `X-Subgraph-Secret`; unset: no /graphql/subgraph. */
  subgraphSecret?: string;
  /** Prometheus metrics at /metrics. */
  metrics: boolean;
  cache: {
    /** Max age (seconds) of anonymous public reads, in Cache-Control and the response cache. */
    maxAge: number;
    /** Memory for stored anonymous responses; 0 turns the response cache off. */
    responseCacheBytes: number;
    /**
     * How long (seconds) the service keeps an answer sent with the default max-age while writes evict what they
     * change (a store that can watch); otherwise entries expire at their max-age.
     */
    responseCacheTtl: number;
    /** Memory for ready representations the REST lists are assembled from (src/cache/ready-parts.ts); 0: none. */
    readyPartsBytes: number;
  };
  /** A CDN in front: how long it may keep public answers, and where purges are sent. */
  cdn: {
    /** Seconds a CDN keeps an answer sent with the default max-age (purges end it sooner). */
    maxAge: number;
    staleWhileRevalidate: number;
    /** Varnish (or any cache taking `PURGE` with an `xkey-purge` header): purged when something shown changes. */
    purgeUrl?: string;
    /** Purges wait at most this long after their write: every purge queued by then goes out in one request. */
    purgeWindowMs: number;
    /** What `purgeUrl` speaks: Varnish's xkey `PURGE`, Fastly's or Cloudflare's purge API. */
    purgeProvider: 'varnish' | 'fastly' | 'cloudflare';
    /** The API token Fastly or Cloudflare purges need (a secret: never logged). */
    purgeToken?: string;
  };
  /** GraphQL subscriptions over WebSocket (src/live). */
  live: {
    maxSubscriptions: number;
    maxMessageBytes: number;
    keepAliveMs: number;
    /** A connection without subscriptions for this long is closed. */
    idleTimeoutMs: number;
    /** A subscriber whose socket holds more unsent bytes than this is dropped. */
    maxBufferedBytes: number;
    /** How long a socket the server closes (too slow, token ended) has to read its close frame before it is cut. */
    closeGraceMs: number;
  };
  newsletter: {
    /** The page an activation mail links to (`{channelId}` is replaced); it gets channel, email and key. */
    activationUrl: string;
  };
  oauth: {
    /** `${publicUrl}/oauth2`: the provider is mounted there. */
    issuer: string;
    /** The resource indicator access tokens are issued for (their `aud`). */
    audience: string;
    /** Private JWKS JSON and cookie keys from the environment; unset: generated once and kept in the store. */
    jwks?: string;
    cookieKeys?: string[];
    accessTokenTtl: number;
    refreshTokenTtl: number;
    refreshReuseGraceSeconds: number;
    /** How often each process reads new revocations and signing keys from the store. */
    pollMs: number;
    /** Argon2id cost; lowered by default under NODE_ENV=test so suites stay fast. */
    argon2: { memoryCost: number; timeCost: number };
    /**
     * failuresPerAccount: per account from one IP (or one known device); failuresPerIp: per client IP;
     * unknownDeviceFailuresPerAccount: per account from all unknown devices; otpRequestsPerAddress:
     * code requests per address from all clients.
     */
    loginLimits: {
      failuresPerAccount: number;
      failuresPerIp: number;
      unknownDeviceFailuresPerAccount: number;
      otpRequestsPerAddress: number;
      windowSeconds: number;
    };
    /** Third-party sign-in; a provider without an audience is disabled. */
    thirdParty: Partial<Record<ThirdPartyProvider, ThirdPartyConfig>>;
  };
  mail: { smtpUrl?: string; from: string };
  /** Outgoing webhooks (src/events); times in milliseconds. */
  webhooks: {
    enabled: boolean;
    /** Hosts, addresses or networks (CIDR) a webhook may target although they are not public (development). */
    allowTargets: string[];
    connectTimeoutMs: number;
    timeoutMs: number;
    /** Retries wait a random time up to min(retryMaxMs, retryBaseMs * 2^(attempt-1)), for retryForMs in all. */
    retryBaseMs: number;
    retryMaxMs: number;
    retryForMs: number;
    /** An endpoint without a successful delivery for this long is disabled. */
    disableAfterMs: number;
    /** How often each process looks for due deliveries (new events wake it at once). */
    pollMs: number;
    /** Delivered and failed deliveries are removed this long after their last change. */
    keepForMs: number;
  };
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
  if (c.CDN_PURGE_URL && c.CDN_PURGE_PROVIDER !== 'varnish' && !c.CDN_PURGE_TOKEN)
    throw new ConfigError([`CDN_PURGE_TOKEN: ${c.CDN_PURGE_PROVIDER} purges need an API token`]);
  // Purges are sent by the webhook outbox's worker: without it the CDN would keep changed answers for CDN_MAX_AGE.
  if (c.CDN_PURGE_URL && c.WEBHOOKS === false)
    throw new ConfigError(['CDN_PURGE_URL: purges are sent by the webhook worker, which WEBHOOKS=false turns off']);
  const isProduction = c.NODE_ENV === 'production';
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const testing = c.NODE_ENV === 'test';
  return {
    env: c.NODE_ENV,
    isProduction,
    host: c.HOST,
    port: c.PORT,
    publicUrl,
    logLevel: c.LOG_LEVEL,
    store: {
      uri: c.MONGODB_URI,
      dbName: c.MONGODB_DB,
      mode: c.STORE,
      dataDir: c.DATA_DIR,
      timeoutMs: c.STORE_TIMEOUT_MS,
      engineThread: c.ENGINE_WORKER ?? true,
    },
    seed: c.SEED ?? (isProduction ? 'none' : 'demo'),
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    introspection: c.INTROSPECTION ?? true,
    playground: c.PLAYGROUND ?? !isProduction,
    apiDocs: c.API_DOCS ?? true,
    graphql: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      maxAliases: c.GRAPHQL_MAX_ALIASES,
      maxCost: c.GRAPHQL_MAX_COST,
      maxTokens: c.GRAPHQL_MAX_TOKENS,
      introspection: c.INTROSPECTION ?? true,
    },
    trustedDocuments: c.TRUSTED_DOCUMENTS,
    metrics: c.METRICS ?? true,
    cache: {
      maxAge: c.CACHE_MAX_AGE,
      responseCacheBytes: c.RESPONSE_CACHE_MB * 1024 * 1024,
      responseCacheTtl: c.RESPONSE_CACHE_TTL_SECONDS,
      readyPartsBytes: c.READY_PARTS_MB * 1024 * 1024,
    },
    cdn: {
      maxAge: c.CDN_MAX_AGE ?? c.CACHE_MAX_AGE,
      staleWhileRevalidate: c.CDN_STALE_WHILE_REVALIDATE,
      purgeUrl: c.CDN_PURGE_URL,
      purgeWindowMs: c.CDN_PURGE_WINDOW_MS,
      purgeProvider: c.CDN_PURGE_PROVIDER,
      purgeToken: c.CDN_PURGE_TOKEN,
    },
    live: {
      maxSubscriptions: c.LIVE_MAX_SUBSCRIPTIONS,
      maxMessageBytes: c.LIVE_MAX_MESSAGE_BYTES,
      keepAliveMs: c.LIVE_KEEPALIVE_MS,
      idleTimeoutMs: c.LIVE_IDLE_TIMEOUT_MS,
      maxBufferedBytes: c.LIVE_MAX_BUFFERED_BYTES,
      closeGraceMs: c.LIVE_CLOSE_GRACE_MS,
    },
    newsletter: { activationUrl: c.NEWSLETTER_ACTIVATION_URL ?? `${publicUrl}/newsletter/activate` },
    corsOrigins: c.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxyHops: c.TRUST_PROXY,
    cursorKeys: c.CURSOR_KEYS?.split(',').map((k) => k.trim()),
    subgraphSecret: c.SUBGRAPH_SECRET,
    oauth: {
      issuer: `${publicUrl}/oauth2`,
      audience: c.API_AUDIENCE ?? `${publicUrl}/`,
      jwks: c.OAUTH_JWKS,
      cookieKeys: c.OAUTH_COOKIE_KEYS?.split(',').map((k) => k.trim()),
      accessTokenTtl: c.ACCESS_TOKEN_TTL,
      refreshTokenTtl: c.REFRESH_TOKEN_TTL,
      refreshReuseGraceSeconds: c.REFRESH_REUSE_GRACE_SECONDS,
      pollMs: c.OAUTH_POLL_MS,
      argon2: {
        memoryCost: c.ARGON2_MEMORY_KIB ?? (testing ? 1024 : 19_456),
        timeCost: c.ARGON2_TIME_COST ?? (testing ? 1 : 2),
      },
      loginLimits: {
        failuresPerAccount: c.LOGIN_MAX_FAILURES_PER_ACCOUNT,
        failuresPerIp: c.LOGIN_MAX_FAILURES_PER_IP,
        unknownDeviceFailuresPerAccount: c.LOGIN_MAX_UNKNOWN_DEVICE_FAILURES_PER_ACCOUNT,
        otpRequestsPerAddress: c.OTP_MAX_REQUESTS_PER_ADDRESS,
        windowSeconds: c.LOGIN_FAILURE_WINDOW_SECONDS,
      },
      thirdParty: {
        google: thirdParty(c.GOOGLE_ISSUER, c.GOOGLE_AUDIENCE, c.GOOGLE_JWKS_URI),
        facebook: thirdParty(c.FACEBOOK_ISSUER, c.FACEBOOK_AUDIENCE, c.FACEBOOK_JWKS_URI),
        apple: thirdParty(c.APPLE_ISSUER, c.APPLE_AUDIENCE, c.APPLE_JWKS_URI),
      },
    },
    mail: { smtpUrl: c.SMTP_URL, from: c.MAIL_FROM },
    webhooks: {
      enabled: c.WEBHOOKS ?? true,
      allowTargets: c.WEBHOOK_ALLOW_TARGETS.split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      connectTimeoutMs: c.WEBHOOK_CONNECT_TIMEOUT_MS,
      timeoutMs: c.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: c.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: c.WEBHOOK_RETRY_MAX_MS,
      retryForMs: c.WEBHOOK_RETRY_FOR_MS,
      disableAfterMs: c.WEBHOOK_DISABLE_AFTER_MS,
      pollMs: c.WEBHOOK_POLL_MS,
      keepForMs: c.WEBHOOK_KEEP_FOR_MS,
    },
  };
}
