// The OAuth module's one entry point: loads the keys, builds the provider and the pieces around it,
// and hands app.ts a single middleware for /oauth2 (plus the RFC 8414 metadata alias) and the
// bearer Authenticator for REST and GraphQL.
import mount from 'koa-mount';
import type Koa from 'koa';
import type { Provider } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Authenticator } from '../http/authenticate.js';
import type { Logger } from '../logger.js';
import { createMailer, type Mailer } from '../mail/index.js';
import type { Store } from '../store/store.js';
import { AttemptLimiter } from './attempt-limits.js';
import { accessTokenVerifier, bearerAuthenticator } from './bearer.js';
import { interactionRoutes } from './interactions.routes.js';
import { KeyWatcher, keysFromEnvironment, loadKeys, type OAuthKeys } from './keys.js';
import { runtimeNotice } from './oidc.js';
import { OtpService, type OtpRequestCounter } from './otp.js';
import { otpRoutes } from './otp.routes.js';
import { PasswordLogin } from './password-login.js';
import { PasswordHasher } from './passwords.js';
import { SignInLimits } from './sign-in-limits.js';
import { createProvider, OAUTH_ROUTES } from './provider.js';
import { PollingRevocationFeed, RevocationList } from './revocations.js';
import { structuredTokenParam } from './structured-tokens.js';
import { ThirdPartySignIn } from './third-party.js';
import { postOnlyEndpoints, tokenEndpoint } from './token-endpoint.js';

export const OAUTH_MOUNT = '/oauth2';

export interface OAuthServer {
  provider: Provider;
  keys: OAuthKeys;
  /** Cookie keys the hosting Koa app must use too: the mounted provider signs cookies through it. */
  cookieKeys: string[];
  authenticate: Authenticator;
  middleware: Koa.Middleware;
  revocations: RevocationList;
  /** Stops the background polls (revocations, keys). */
  stop(): Promise<void>;
}

export async function createOAuthServer(deps: {
  config: Config;
  log: Logger;
  store: Store;
  mailer?: Mailer;
  /** The keys, when the caller started loading them earlier (loadKeys). */
  keys?: Promise<OAuthKeys>;
}): Promise<OAuthServer> {
  const { config, store } = deps;
  const log = deps.log.child({ component: 'oauth' });
  if (runtimeNotice) log.info('oidc-provider prefers Node 22+; this service supports Node >= 20.19 (CI runs both)');
  const keys = await (deps.keys ?? loadKeys(config, store, log));
  const mailer = deps.mailer ?? createMailer({ config, store, log: deps.log });
  const hasher = new PasswordHasher(config.oauth.argon2);
  const limits = config.oauth.loginLimits;
  const failures = new SignInLimits(
    store,
    {
      perAccountAndIp: limits.failuresPerAccount,
      perIp: limits.failuresPerIp,
      perAccountUnknownDevices: limits.unknownDeviceFailuresPerAccount,
      windowSeconds: limits.windowSeconds,
    },
    keys.deviceKey,
  );
  const requests = new AttemptLimiter<OtpRequestCounter>(store, {
    prefix: 'otp-request',
    points: { pair: limits.failuresPerAccount, ip: limits.failuresPerIp, address: limits.otpRequestsPerAddress },
    windowSeconds: limits.windowSeconds,
    key: keys.deviceKey,
  });
  const logins = new PasswordLogin(store, hasher, failures);
  const otp = new OtpService({
    store,
    mailer,
    log,
    key: keys.otpKey,
    failures,
    requests,
    maxLiveCodes: limits.otpRequestsPerAddress,
  });
  const thirdParty = new ThirdPartySignIn(store, config.oauth.thirdParty, log);
  // A revocation matters while an access token issued before it can still be presented.
  const revocations = new RevocationList(
    store,
    new PollingRevocationFeed(store, config.oauth.pollMs, log),
    config.oauth.accessTokenTtl + 60,
  );
  await revocations.start();

  const issuerPath = new URL(config.oauth.issuer).pathname.replace(/\/$/, '') || OAUTH_MOUNT;
  const otpRouter = otpRoutes({ path: `${OAUTH_MOUNT}/otp`, store, otp });

  /** The provider and everything bound to it, for one set of signing keys; rebuilt when the keys change. */
  const build = (current: OAuthKeys) => {
    const provider = createProvider({
      config,
      log,
      store,
      keys: current,
      otp,
      password: { logins, thirdParty, limiter: failures, otp },
      revocations,
    });
    const verify = accessTokenVerifier(config, current);
    const interactions = interactionRoutes({ provider, logins, base: `${OAUTH_MOUNT}/interaction` });
    const middleware = compose([
      metadataAlias(issuerPath),
      postOnlyEndpoints([
        {
          path: `${OAUTH_MOUNT}${OAUTH_ROUTES.token}`,
          types: ['application/x-www-form-urlencoded', 'application/json'],
        },
        { path: `${OAUTH_MOUNT}/otp`, types: ['application/x-www-form-urlencoded', 'application/json'] },
        { path: `${OAUTH_MOUNT}${OAUTH_ROUTES.introspection}`, types: ['application/x-www-form-urlencoded'] },
        { path: `${OAUTH_MOUNT}${OAUTH_ROUTES.revocation}`, types: ['application/x-www-form-urlencoded'] },
      ]),
      otpRouter.routes() as unknown as Koa.Middleware,
      interactions.routes() as unknown as Koa.Middleware,
      tokenEndpoint(`${OAUTH_MOUNT}${OAUTH_ROUTES.token}`),
      structuredTokenParam(
        [`${OAUTH_MOUNT}${OAUTH_ROUTES.introspection}`, `${OAUTH_MOUNT}${OAUTH_ROUTES.revocation}`],
        verify,
      ),
      mount(OAUTH_MOUNT, provider),
    ]);
    return { provider, verify, middleware, keys: current };
  };
  let live = build(keys);
  // Keys kept in the store can be rotated (npm run oauth:keys): every process picks a change up on its poll.
  const watcher = keysFromEnvironment(config) ? null : new KeyWatcher(store, config.oauth.pollMs, log);
  watcher?.start(keys, async (next) => {
    live = build(next);
  });

  return {
    get provider() {
      return live.provider;
    },
    get keys() {
      return live.keys;
    },
    cookieKeys: keys.cookieKeys,
    authenticate: bearerAuthenticator({ config, store, keys, revocations, verify: (token) => live.verify(token) }),
    middleware: (ctx, next) => live.middleware(ctx, next),
    revocations,
    async stop() {
      watcher?.stop();
      revocations.stop();
    },
  };
}

/** Runs middlewares in order, as one. */
function compose(chain: Koa.Middleware[]): Koa.Middleware {
  return (ctx, next) => {
    const run = (i: number): Promise<unknown> =>
      i === chain.length ? next() : Promise.resolve(chain[i]!(ctx, () => run(i + 1)));
    return run(0);
  };
}

/** RFC 8414 §3.1: for an issuer with a path, metadata lives at /.well-known/oauth-authorization-server{path}. */
function metadataAlias(issuerPath: string): Koa.Middleware {
  const alias = `/.well-known/oauth-authorization-server${issuerPath}`;
  return async (ctx, next) => {
    if (ctx.path === alias && (ctx.method === 'GET' || ctx.method === 'OPTIONS'))
      ctx.path = `${OAUTH_MOUNT}/.well-known/oauth-authorization-server`;
    await next();
  };
}
