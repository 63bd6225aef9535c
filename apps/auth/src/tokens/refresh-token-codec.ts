import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { RecordFormats } from '@foodshare/server-kit';

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

// The one protected header this codec writes; as the JWE's additional authenticated data it is
// the ASCII of its base64url form (RFC 7516 5.1 step 14).
const HEADER = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM' })).toString('base64url');
const HEADER_AAD = Buffer.from(HEADER, 'ascii');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Refresh tokens as compact JWEs (`dir`, A256GCM): opaque to clients, authenticated, so a token
 * that decrypts names a family and a generation this server issued. Validity is decided by the
 * family state, not by the token alone.
 *
 * Sealed and opened with node:crypto's AES-GCM in place of jose's WebCrypto path: the token
 * endpoint's profile showed jose importing the key and running an asynchronous WebCrypto job
 * for every seal and open, several times the cost of the cipher itself. The tokens are the
 * same RFC 7516 compact JWEs, byte for byte in form: either implementation opens the other's.
 */
export class RefreshTokenCodec {
  // A KeyObject, made once: given bytes, every cipher and decipher imports the key anew
  // (docs/benchmarks.md §2.1).
  readonly #key: KeyObject;
  readonly #now: () => number;

  constructor(keyEncryptionKey: Uint8Array, now: () => number = Date.now) {
    this.#key = createSecretKey(
      Buffer.from(hkdfSync('sha256', keyEncryptionKey, new Uint8Array(0), KEY_INFO, 32)),
    );
    this.#now = now;
  }

  seal(claims: RefreshTokenClaims): Promise<string> {
    // The claims in the order jose wrote them: fid, cid, jti, iat, exp; then the format
    // (docs/operations.md §1.2), which readers of format 0 ignore.
    const payload = JSON.stringify({
      fid: claims.familyId,
      cid: claims.clientId,
      jti: claims.jti,
      iat: Math.floor(this.#now() / 1000),
      exp: claims.expiresAt,
      v: RecordFormats.refreshToken.version,
    });
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(HEADER_AAD);
    const ciphertext = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return Promise.resolve(
      `${HEADER}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${tag.toString('base64url')}`,
    );
  }

  /** The claims of a refresh token this server issued and that has not expired, or null. */
  open(token: string): Promise<RefreshTokenClaims | null> {
    return Promise.resolve(this.#open(token));
  }

  #open(token: string): RefreshTokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 5 || !parts.every((part) => BASE64URL.test(part))) return null;
    const [header, encryptedKey, ivPart, ciphertextPart, tagPart] = parts as [
      string,
      string,
      string,
      string,
      string,
    ];
    // `dir`: no encrypted key (RFC 7518 4.5). Only the algorithms of this codec, and nothing a
    // reader would have to understand (crit) or inflate (zip), as jose's options demanded.
    const protectedHeader = decodeJson(header);
    if (encryptedKey !== '' || !protectedHeader) return null;
    if (protectedHeader.alg !== 'dir' || protectedHeader.enc !== 'A256GCM') return null;
    if (protectedHeader.crit !== undefined || protectedHeader.zip !== undefined) return null;
    const iv = Buffer.from(ivPart, 'base64url');
    const tag = Buffer.from(tagPart, 'base64url');
    // A shorter tag would be accepted by GCM and authenticate less: exactly 128 bits.
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
    let plaintext: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(header, 'ascii'));
      decipher.setAuthTag(tag);
      plaintext = Buffer.concat([
        decipher.update(Buffer.from(ciphertextPart, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(plaintext);
    } catch {
      return null;
    }
    return this.#claims(payload);
  }

  /** The JWT checks jose made (RFC 7519 4.1): exp and jti present, exp not passed, nbf reached. */
  #claims(payload: unknown): RefreshTokenClaims | null {
    if (!isObject(payload)) return null;
    const { fid, cid, jti, exp, iat, nbf } = payload;
    const now = Math.floor(this.#now() / 1000);
    if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= now) return null;
    if (iat !== undefined && typeof iat !== 'number') return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
    if (typeof fid !== 'string' || typeof cid !== 'string' || typeof jti !== 'string') {
      return null;
    }
    return { familyId: fid, clientId: cid, jti, expiresAt: exp };
  }
}
