import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';

/** What a refresh token carries; only this server can read it (docs/spec.md §5.2 rule 7). */
export interface RefreshTokenClaims {
  /** The family (grant) it belongs to. */
  familyId: string;
  /** This generation's id; valid while the family's key for it exists. */
  jti: string;
  clientId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

// A key of its own, derived from the key-encryption key: the signing keys' encryption at rest
// and the refresh tokens never share key material (HKDF's info separates the uses).
const KEY_INFO = 'foodshare oauth refresh-token A256GCM v1';

/**
 * Whether a token has the form of a refresh token: a compact JWE has five parts, a compact JWS
 * (the access and ID tokens) three. Endpoints that take either kind tell them apart by it, which
 * makes `token_type_hint` unneeded (RFC 7009 2.1 and RFC 7662 2.1 allow ignoring it).
 */
export const isCompactJwe = (token: string) => token.split('.').length === 5;

/**
 * Refresh tokens as compact JWEs (`dir`, A256GCM): opaque to clients, authenticated, so a token
 * that decrypts names a family and a generation this server issued. Validity is decided by the
 * family state, not by the token alone.
 */
export class RefreshTokenCodec {
  readonly #key: Uint8Array;
  readonly #now: () => number;

  constructor(keyEncryptionKey: Uint8Array, now: () => number = Date.now) {
    this.#key = new Uint8Array(
      hkdfSync('sha256', keyEncryptionKey, new Uint8Array(0), KEY_INFO, 32),
    );
    this.#now = now;
  }

  seal(claims: RefreshTokenClaims): Promise<string> {
    return new EncryptJWT({ fid: claims.familyId, cid: claims.clientId })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti(claims.jti)
      .setIssuedAt(Math.floor(this.#now() / 1000))
      .setExpirationTime(claims.expiresAt)
      .encrypt(this.#key);
  }

  /** The claims of a refresh token this server issued and that has not expired, or null. */
  async open(token: string): Promise<RefreshTokenClaims | null> {
    try {
      const { payload } = await jwtDecrypt(token, this.#key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        requiredClaims: ['exp', 'jti'],
        currentDate: new Date(this.#now()),
      });
      const { fid, cid, jti, exp } = payload;
      if (typeof fid !== 'string' || typeof cid !== 'string' || typeof jti !== 'string') {
        return null;
      }
      return { familyId: fid, clientId: cid, jti, expiresAt: Number(exp) };
    } catch {
      return null;
    }
  }
}
