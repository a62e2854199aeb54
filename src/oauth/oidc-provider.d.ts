// Type declarations for the parts of oidc-provider 9 this service uses (the package ships none and the
// DefinitelyTyped ones lag its major versions). Shapes follow node_modules/oidc-provider/lib.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type Koa from 'koa';

  export type UnknownObject = Record<string, unknown>;

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    client_name?: string;
    redirect_uris?: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    scope?: string;
    application_type?: 'web' | 'native';
    [key: string]: unknown;
  }

  export interface Client {
    clientId: string;
    clientName?: string;
    clientSecret?: string;
    clientAuthMethod: string;
    redirectUris: string[];
    scope?: string;
    grantTypeAllowed(type: string): boolean;
    compareClientSecret(actual: string): boolean;
  }

  export interface Account {
    accountId: string;
    claims(
      use: string,
      scope: string,
      claims: UnknownObject,
      rejected: string[],
    ): Promise<UnknownObject> | UnknownObject;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'jwt' | 'opaque';
    jwt?: { sign?: { alg?: string; kid?: string } };
  }

  export interface ResourceServer {
    scope: string;
    scopes: Set<string>;
    identifier(): string;
  }

  export interface Grant {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    getOIDCScope(): string;
    getResourceScopeFiltered(resource: string, filter: Iterable<string>): string;
    save(ttl?: number): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface BaseToken {
    jti: string;
    accountId?: string;
    clientId: string;
    grantId?: string;
    scope?: string;
    resource?: string | string[];
    gty?: string;
    exp: number;
    iat: number;
    expiration: number;
    resourceServer?: ResourceServer;
    tokenType?: string;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface Interaction {
    uid: string;
    jti: string;
    prompt: { name: string; reasons: string[]; details: UnknownObject };
    params: UnknownObject & { client_id: string; scope?: string; redirect_uri?: string };
    session?: { accountId: string; uid: string };
    grantId?: string;
    lastSubmission?: UnknownObject;
    returnTo: string;
  }

  export interface OIDCContext {
    params: UnknownObject & Record<string, string | string[] | undefined>;
    client?: Client;
    route?: string;
    issuer: string;
    provider: Provider;
    entity(name: string, value: unknown): void;
    account?: Account;
  }

  export type KoaContextWithOIDC = Koa.ParameterizedContext & { oidc: OIDCContext };

  export type Configuration = UnknownObject;

  export interface GrantConstructor {
    new (props: { accountId: string; clientId: string }): Grant;
    find(id: string, opts?: { ignoreExpiration?: boolean }): Promise<Grant | undefined>;
  }

  export interface TokenConstructor<T extends BaseToken = BaseToken> {
    new (props: UnknownObject): T;
    find(value: string, opts?: { ignoreExpiration?: boolean }): Promise<T | undefined>;
  }

  export interface IdTokenInstance {
    scope?: string;
    set(key: string, value: unknown): void;
    issue(opts: { use: 'idtoken' }): Promise<string>;
  }

  export class Provider extends Koa {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    keys: string[];
    registerGrantType(
      name: string,
      handler: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>,
      params?: string[] | Set<string>,
      allowedDuplicateParameters?: string[] | Set<string>,
    ): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: UnknownObject,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    readonly Client: { find(id: string): Promise<Client | undefined>; prototype: Client };
    readonly Grant: GrantConstructor;
    readonly AccessToken: TokenConstructor;
    readonly RefreshToken: TokenConstructor;
    readonly IdToken: new (claims: UnknownObject, opts: { ctx: KoaContextWithOIDC }) => IdTokenInstance;
    readonly ResourceServer: new (identifier: string, info: ResourceServerInfo) => ResourceServer;
  }

  export class OIDCProviderError extends Error {
    constructor(status: number, message: string, options?: string | { detail?: string; cause?: unknown });
    error: string;
    error_description?: string;
    error_detail?: string;
    status: number;
    statusCode: number;
    expose: boolean;
  }

  type DescribedError = new (description?: string, options?: unknown) => OIDCProviderError;

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    InvalidGrant: new (detail?: string) => OIDCProviderError;
    InvalidClientAuth: new (detail?: string) => OIDCProviderError;
    InvalidRequest: new (description?: string, status?: number) => OIDCProviderError;
    InvalidScope: new (description: string, scope?: string) => OIDCProviderError;
    SessionNotFound: new (description?: string) => OIDCProviderError;
    InvalidTarget: DescribedError;
    AccessDenied: DescribedError;
    UnauthorizedClient: DescribedError;
    TemporarilyUnavailable: DescribedError;
  };

  export default Provider;
}
