// Preview link tokens (docs/api.md, "Preview"): compact JWTs (HS256, by jose) naming one link, one article or issue
// and an expiry. The key is derived (HKDF) from each of the service's signing keys, the ones connection cursors are
// signed with (src/cursors/keys.ts): the first signs, every one verifies, so rotating those keys rotates these, and a
// token is never mistaken for a cursor or the reverse. The signature only says the service issued the token: what it
// grants is decided by the link's record in the store (preview.ts), read on every use.
import { hkdfSync } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../errors.js';

export interface PreviewClaims {
  linkId: string;
  collection: 'articles' | 'issues';
  documentId: string;
  expiresAt: Date;
}

const AUDIENCE = 'preview';
/** Ours are about 250 characters; anything much longer is not worth verifying. */
const MAX_TOKEN = 1024;

const derive = (key: Buffer): Uint8Array => new Uint8Array(hkdfSync('sha256', key, '', 'preview links', 32));

/** A 401 for a token that cannot be used, with a challenge naming the scheme (RFC 9110 §11.6.1 needs one). */
export function previewRefused(code: 'PREVIEW_TOKEN_INVALID' | 'PREVIEW_LINK_EXPIRED', detail: string): AppError {
  return new AppError({
    status: 401,
    code,
    title: 'Unauthorized',
    detail,
    headers: { 'WWW-Authenticate': `Preview-Token error="${code === 'PREVIEW_LINK_EXPIRED' ? 'expired' : 'invalid'}"` },
  });
}

export class PreviewTokens {
  private readonly keys: readonly Uint8Array[];

  /** `keys`: the service's signing keys, the first signing. */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('PreviewTokens needs at least one key');
    this.keys = keys.map(derive);
  }

  sign(claims: PreviewClaims): Promise<string> {
    return new SignJWT({ kind: claims.collection })
      .setProtectedHeader({ alg: 'HS256', typ: 'preview+jwt' })
      .setJti(claims.linkId)
      .setSubject(claims.documentId)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(claims.expiresAt)
      .sign(this.keys[0]!);
  }

  /** The claims of a token this service issued and that has not expired; a 401 otherwise. */
  async verify(token: string): Promise<PreviewClaims> {
    if (token.length > MAX_TOKEN) throw previewRefused('PREVIEW_TOKEN_INVALID', 'The preview token is not valid');
    for (const key of this.keys) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          audience: AUDIENCE,
          typ: 'preview+jwt',
          requiredClaims: ['jti', 'sub', 'exp'],
        });
        const kind = payload.kind;
        if (kind !== 'articles' && kind !== 'issues') break;
        return {
          linkId: payload.jti!,
          collection: kind,
          documentId: payload.sub!,
          expiresAt: new Date(payload.exp! * 1000),
        };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired)
          throw previewRefused('PREVIEW_LINK_EXPIRED', 'The preview link has expired: ask for a new one');
        if (err instanceof joseErrors.JWSSignatureVerificationFailed) continue; // another key may have signed it
        break;
      }
    }
    throw previewRefused('PREVIEW_TOKEN_INVALID', 'The preview token is not valid');
  }
}
