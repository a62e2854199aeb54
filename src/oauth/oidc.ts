// The one place oidc-provider is loaded. Its entry point prints an "Unsupported runtime" notice on
// Node 20 (it prefers 22+); we support Node >= 20.19 and CI runs the suite on 20 and 24, so that single
// notice is captured here and reported through our logger (createOAuthServer) instead of stderr.
// Everything else imports the provider from this module, never from 'oidc-provider' directly.
import type * as OidcProvider from 'oidc-provider';

const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime';

const original = console.warn;
let notice: string | undefined;
console.warn = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (text.includes(UNSUPPORTED_RUNTIME)) notice = text;
  else original(...args);
};
let loaded: typeof OidcProvider;
try {
  loaded = await import('oidc-provider');
} finally {
  console.warn = original;
}

export const { Provider, errors } = loaded;
/** The runtime notice oidc-provider gave at load time, if any. */
export const runtimeNotice = notice;
