// Who a request is made for: the signed-in customer behind a bearer token, and the entitlements they hold.
// Apart from the request context (context.ts), so that what only needs the viewer (the bearer check, the
// response cache's shared answers) does not tie itself to everything a context carries.

export interface Entitlement {
  group: string;
  validUntil: Date | null;
}

/** The signed-in customer a bearer token stands for. */
export interface Viewer {
  customerId: string;
  clientId?: string;
  scopes: ReadonlySet<string>;
  /** Loaded lazily (a DataLoader in the OAuth module) so requests that never ask pay nothing. */
  entitlements(): Promise<Entitlement[]>;
}
