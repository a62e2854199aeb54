// A WebSocket connection authenticated with an access token lives no longer than the token: it is closed with
// 4403 (Forbidden) when the token expires, and when the token or its grant is revoked (the process's revocation
// list tells of revocations: its own at once, another process's within a poll period). graphql-ws clients
// retry after 4403 (their connectionParams function can present a fresh token) and resubscribe; a client with
// no valid token is refused again and its subscriptions end with that close event. Anonymous connections and
// tokens that are not JWTs (a test's own authenticator) are not followed.
import { decodeJwt } from 'jose';
import type { WebSocket } from 'ws';

/** What the WebSocket endpoint needs of the revocation list (src/oauth/revocations.ts). */
export interface RevocationEvents {
  isRevoked(jti: unknown, grantId: unknown): boolean;
  onRevoked(listener: (entries: ReadonlyArray<{ kind: string; value: string }>) => void): () => void;
}

export const FORBIDDEN = 4403;
/** setTimeout's longest delay; a later expiry is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

interface Followed {
  keys: string[];
  timer?: NodeJS.Timeout;
}

export class TokenLifetimes {
  /** `token:<jti>` / `grant:<gid>` -> the open connections holding such a token. */
  private readonly holders = new Map<string, Set<WebSocket>>();
  private readonly followed = new Map<WebSocket, Followed>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly revocations: RevocationEvents | undefined,
    /** Ends a connection whose token stopped being valid. */
    private readonly end: (socket: WebSocket, reason: string) => void,
  ) {
    this.unsubscribe =
      revocations?.onRevoked((entries) => {
        for (const { kind, value } of entries)
          for (const socket of [...(this.holders.get(`${kind}:${value}`) ?? [])])
            this.endNow(socket, 'the access token has been revoked');
      }) ?? (() => undefined);
  }

  /**
   * Follows the (already verified) bearer token of an open connection until it closes. False when the token
   * has meanwhile expired or been revoked: the connection is to be refused.
   */
  follow(socket: WebSocket, token: string): boolean {
    let claims: ReturnType<typeof decodeJwt>;
    try {
      claims = decodeJwt(token);
    } catch {
      return true;
    }
    const keys = [
      typeof claims.jti === 'string' ? `token:${claims.jti}` : '',
      typeof claims.gid === 'string' ? `grant:${claims.gid}` : '',
    ].filter(Boolean);
    // Checked and registered in one synchronous step: a revocation learnt after this reaches the listener.
    if (this.revocations?.isRevoked(claims.jti, claims.gid)) return false;
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) return false;
    const entry: Followed = { keys };
    this.followed.set(socket, entry);
    for (const key of keys) {
      let set = this.holders.get(key);
      if (!set) this.holders.set(key, (set = new Set()));
      set.add(socket);
    }
    if (typeof claims.exp === 'number') this.expireAt(socket, entry, claims.exp * 1000);
    return true;
  }

  /** The connection closed: nothing of it is kept. */
  forget(socket: WebSocket): void {
    const entry = this.followed.get(socket);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.followed.delete(socket);
    for (const key of entry.keys) {
      const set = this.holders.get(key);
      set?.delete(socket);
      if (set?.size === 0) this.holders.delete(key);
    }
  }

  /** The connections followed (each an open, token-authenticated one). */
  sockets(): IterableIterator<WebSocket> {
    return this.followed.keys();
  }

  close(): void {
    this.unsubscribe();
    for (const socket of [...this.followed.keys()]) this.forget(socket);
  }

  private expireAt(socket: WebSocket, entry: Followed, at: number): void {
    const delay = at - Date.now();
    if (delay <= 0) {
      this.endNow(socket, 'the access token has expired');
      return;
    }
    entry.timer = setTimeout(() => this.expireAt(socket, entry, at), Math.min(delay, MAX_DELAY_MS)).unref();
  }

  private endNow(socket: WebSocket, reason: string): void {
    this.forget(socket);
    this.end(socket, reason);
  }
}
