import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import {
  currentSigningKey,
  decryptPrivateJwk,
  isPublished,
  loadPublishedSigningKeys,
  SIGNING_KEY_ALGORITHM,
  type MikroORM,
  type StoredSigningKey,
} from '@foodshare/domain';
import type { FastifyBaseLogger } from 'fastify';
import {
  encodeProtectedHeader,
  parseCompactJws,
  payloadOf,
  rs256Verifies,
  signCompactRs256,
} from './compact-jws.ts';

/** Why a token was refused; endpoints answer `invalid_token` whatever the reason. */
export type InvalidTokenReason =
  'malformed' | 'unknown_key' | 'signature' | 'expired' | 'not_yet_valid' | 'claims' | 'type';

export class InvalidTokenError extends Error {
  readonly code = 'invalid_token';
  readonly reason: InvalidTokenReason;

  constructor(reason: InvalidTokenReason, message: string) {
    super(message);
    this.name = 'InvalidTokenError';
    this.reason = reason;
  }
}

/** No key may sign at this moment (every key retired): a configuration fault, never bad input. */
export class NoSigningKeyError extends Error {
  constructor() {
    super('No signing key is active; run `pnpm cli keys rotate --activate-after 0s`');
    this.name = 'NoSigningKeyError';
  }
}

/** A public JWK as the JWKS publishes it: public RSA members only (RFC 7517 4, RFC 7518 6.3.1). */
export interface PublishedJwk extends JsonWebKey {
  kid: string;
  kty: 'RSA';
  use: 'sig';
  alg: 'RS256';
  n: string;
  e: string;
}

interface LoadedKey extends StoredSigningKey {
  publicKey: KeyObject;
}

export interface KeyRingOptions {
  orm: MikroORM;
  keyEncryptionKey: Uint8Array;
  issuer: string;
  /** How long loaded keys are trusted before the next use re-reads PostgreSQL. */
  refreshMs: number;
  log: FastifyBaseLogger;
  /** The clock, in milliseconds since the epoch; tests may move it. */
  now?: () => number;
}

// An unknown kid may be a key another instance published a moment ago; one forced re-read per
// interval at most, so tokens with made-up kids cannot turn into a query each.
const UNKNOWN_KID_RELOAD_INTERVAL_MS = 1000;

/**
 * The signing keys of every auth instance, read from PostgreSQL and cached. The cache reloads
 * lazily once it is older than `refreshMs`, so no timer keeps the process alive. A rotation
 * made by the CLI or another instance reaches this one within that interval. Which key signs
 * is decided at each use from the rows' activation times, so a published next key starts
 * signing on time.
 *
 * Signing (on the thread pool) and verification (in the request's thread) use node:crypto with
 * KeyObjects imported once per reload (compact-jws.ts); verification makes the checks jose's
 * jwtVerify made (`assertClaims`), whose WebCrypto path cost three times the CPU of the RSA check
 * (docs/benchmarks.md §2.2). The key is looked up by kid among several published keys. A result
 * cache such as fast-jwt's would save only the RSA check, and revocation needs a deny-list
 * look-up per request anyway (§2.1).
 */
export class KeyRing {
  readonly #options: KeyRingOptions;
  readonly #now: () => number;
  #keys: LoadedKey[] = [];
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | null = null;
  readonly #privateKeys = new Map<string, KeyObject>();
  readonly #headers = new Map<string, string>();

  constructor(options: KeyRingOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Signs with the active key: RS256, header `kid` and `typ` when given. `iss` is always the
   * issuer and `iat` defaults to now; the caller sets `exp`, `aud`, `sub` and the rest.
   */
  async signJwt(payload: Record<string, unknown>, options: { typ?: string } = {}): Promise<string> {
    if (this.#stale()) await this.#fresh();
    const now = this.#now();
    const key = currentSigningKey(this.#keys, new Date(now));
    if (!key) throw new NoSigningKeyError();
    const claims = { iat: Math.floor(now / 1000), ...payload, iss: this.#options.issuer };
    return signCompactRs256(this.#header(key.kid, options.typ), claims, this.#privateKey(key));
  }

  /** The encoded protected header of a key and token type, made once. */
  #header(kid: string, typ: string | undefined): string {
    const name = `${kid} ${typ ?? ''}`;
    let header = this.#headers.get(name);
    if (header === undefined) {
      header = encodeProtectedHeader({
        alg: SIGNING_KEY_ALGORITHM,
        kid,
        ...(typ ? { typ } : {}),
      });
      this.#headers.set(name, header);
    }
    return header;
  }

  /**
   * The claims of a token this server signed: RS256 by a published key (by `kid`), `iss` equal
   * to the issuer, `exp` present and not passed, `nbf` reached, `typ` and `aud` when asked for.
   * Throws InvalidTokenError otherwise. `acceptExpired` lets a passed `exp` through (every other
   * check still holds): an ID token used as a logout hint may have expired long ago
   * (RP-Initiated Logout 1.0 §2), and only who signed it and for whom matter then.
   */
  async verifyJwt(
    token: string,
    options: { typ?: string; audience?: string; acceptExpired?: boolean },
  ): Promise<Record<string, unknown>> {
    const jws = parseCompactJws(token);
    if (!jws) throw new InvalidTokenError('malformed', 'The token is not a valid JWT');
    const { alg, kid, crit, b64 } = jws.header;
    // Nothing a reader would have to understand (crit) or an unencoded payload (b64, RFC 7797).
    if (alg !== SIGNING_KEY_ALGORITHM || typeof kid !== 'string') {
      throw new InvalidTokenError('malformed', 'The token is not RS256 with a kid');
    }
    if (crit !== undefined || b64 !== undefined) {
      throw new InvalidTokenError('malformed', 'The token is not a valid JWT');
    }
    const published =
      (this.#stale() ? undefined : this.#loadedPublishedKey(kid)) ??
      (await this.#publishedKey(kid));
    if (!published) throw new InvalidTokenError('unknown_key', 'No published key has this kid');
    if (!rs256Verifies(jws, published.publicKey)) {
      throw new InvalidTokenError('signature', 'The token signature does not verify');
    }
    const payload = payloadOf(jws);
    if (!payload) throw new InvalidTokenError('malformed', 'The token is not a valid JWT');
    assertClaims(jws.header, payload, {
      ...options,
      issuer: this.#options.issuer,
      now: Math.floor(this.#now() / 1000),
    });
    return payload;
  }

  /** The JWKS: every published key (pending, active and retired-but-not-expired), public parts. */
  async publicJwks(): Promise<{ keys: PublishedJwk[] }> {
    await this.#fresh();
    const now = new Date(this.#now());
    return {
      keys: this.#keys
        .filter((key) => isPublished(key, now))
        .map((key) => ({
          kid: key.kid,
          kty: 'RSA',
          use: 'sig',
          alg: 'RS256',
          n: String(key.publicJwk.n),
          e: String(key.publicJwk.e),
        })),
    };
  }

  /** Re-reads the keys now (tests, and after this process rotated them itself). */
  reload(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  /**
   * Loads the keys and decrypts the active one: at start, so a KEY_ENCRYPTION_KEY that does not
   * open the stored keys stops the boot instead of failing the first token request.
   */
  async prepare(): Promise<void> {
    await this.reload();
    const key = currentSigningKey(this.#keys, new Date(this.#now()));
    if (!key) throw new NoSigningKeyError();
    this.#privateKey(key);
  }

  #stale(): boolean {
    return this.#now() - this.#loadedAt >= this.#options.refreshMs;
  }

  async #fresh(): Promise<void> {
    if (!this.#stale()) return;
    try {
      await this.reload();
    } catch (error) {
      // A database hiccup must not stop signing with keys known a moment ago; retried next use.
      if (this.#keys.length === 0) throw error;
      this.#options.log.warn({ err: error }, 'signing keys could not be reloaded; using cached');
    }
  }

  async #load(): Promise<void> {
    const startedAt = this.#now();
    const em = this.#options.orm.em.fork();
    const rows = await loadPublishedSigningKeys(em, new Date(startedAt));
    this.#keys = rows.map((row) => ({
      ...row,
      publicKey: createPublicKey({ key: row.publicJwk, format: 'jwk' }),
    }));
    const known = new Set(rows.map((row) => row.kid));
    for (const kid of this.#privateKeys.keys()) if (!known.has(kid)) this.#privateKeys.delete(kid);
    this.#headers.clear();
    this.#loadedAt = startedAt;
  }

  /** A published key among those loaded, without a reload (the hot path of `verifyJwt`). */
  #loadedPublishedKey(kid: string): LoadedKey | undefined {
    return this.#keys.find((key) => key.kid === kid && isPublished(key, new Date(this.#now())));
  }

  async #publishedKey(kid: string): Promise<LoadedKey | undefined> {
    await this.#fresh();
    const find = () =>
      this.#keys.find((key) => key.kid === kid && isPublished(key, new Date(this.#now())));
    const found = find();
    if (found || this.#now() - this.#loadedAt < UNKNOWN_KID_RELOAD_INTERVAL_MS) return found;
    await this.reload();
    return find();
  }

  #privateKey(key: LoadedKey): KeyObject {
    let privateKey = this.#privateKeys.get(key.kid);
    if (!privateKey) {
      const jwk = decryptPrivateJwk(
        key.privateKeyEncrypted,
        this.#options.keyEncryptionKey,
        key.kid,
      );
      privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
      this.#privateKeys.set(key.kid, privateKey);
    }
    return privateKey;
  }
}

// RFC 8725 3.11 as jose compares them: case-insensitive, with or without "application/".
const normalizedTyp = (typ: string) => typ.toLowerCase().replace(/^application\//, '');

/**
 * The claim checks jose's jwtVerify made, in its order (RFC 7519 4.1, RFC 9068 4): `typ` when
 * asked for; `iss` and `exp` present, and `aud` when an audience is asked for; `iss` the issuer,
 * `aud` naming the audience; `iat`, `nbf` and `exp` numbers; `nbf` reached; `exp` not passed
 * (the last check, which `acceptExpired` lets through).
 */
function assertClaims(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  options: {
    typ?: string;
    audience?: string;
    acceptExpired?: boolean;
    issuer: string;
    now: number;
  },
): void {
  if (
    options.typ !== undefined &&
    (typeof header.typ !== 'string' || normalizedTyp(header.typ) !== normalizedTyp(options.typ))
  ) {
    throw new InvalidTokenError('type', 'The token has the wrong typ');
  }
  const required = ['iss', ...(options.audience === undefined ? [] : ['aud']), 'exp'];
  for (const claim of required) {
    if (!Object.hasOwn(payload, claim)) {
      throw new InvalidTokenError('claims', `The token's ${claim} claim is not acceptable`);
    }
  }
  if (payload.iss !== options.issuer) {
    throw new InvalidTokenError('claims', "The token's iss claim is not acceptable");
  }
  const { aud } = payload;
  if (
    options.audience !== undefined &&
    !(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))
  ) {
    throw new InvalidTokenError('claims', "The token's aud claim is not acceptable");
  }
  const { iat, nbf, exp } = payload;
  if (iat !== undefined && typeof iat !== 'number') {
    throw new InvalidTokenError('not_yet_valid', 'The token is not valid yet (iat)');
  }
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > options.now)) {
    throw new InvalidTokenError('not_yet_valid', 'The token is not valid yet (nbf)');
  }
  if (typeof exp !== 'number') {
    throw new InvalidTokenError('claims', "The token's exp claim is not acceptable");
  }
  if (exp <= options.now && options.acceptExpired !== true) {
    throw new InvalidTokenError('expired', 'The token has expired');
  }
}
