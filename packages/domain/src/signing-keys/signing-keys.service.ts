import { generateKeyPairSync, hash, type JsonWebKey } from 'node:crypto';
import { SigningKeyEntity } from '../entities/signing-key.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import { encryptPrivateJwk } from './key-encryption.ts';

export const SIGNING_KEY_ALGORITHM = 'RS256';

/**
 * How long a retired key stays in the JWKS by default: longer than the longest token it signed
 * (access and ID tokens, 1 hour) plus a day for clock skew and verifiers' caches (OIDC Core
 * 10.1.1). Refresh tokens are encrypted, not signed, so they do not count.
 */
export const DEFAULT_RETIRED_KEY_PUBLISHED_MS = 25 * 3600 * 1000;

/**
 * The longest lifetime of a token a key signs when the caller does not say: access and ID tokens
 * live 1 hour (docs/spec.md §8; the ID token's exp is the access token's).
 */
export const DEFAULT_LONGEST_SIGNED_TOKEN_LIFETIME_MS = 3600 * 1000;

/**
 * A rotation that would take a key out of the JWKS while tokens it signed are still valid
 * (OIDC Core 10.1.1): verifiers would refuse them before they expire.
 */
export class SigningKeyRotationError extends RangeError {
  readonly code = 'RETIRED_KEY_PUBLISHED_TOO_SHORT';
  /** How long the replaced key would have stayed published after it stops signing. */
  readonly retireAfterMs: number;
  /** The longest lifetime of a token it signs: the least `retireAfterMs` accepted. */
  readonly longestTokenLifetimeMs: number;

  constructor(retireAfterMs: number, longestTokenLifetimeMs: number) {
    super(
      `A replaced key must stay published at least ${formatDuration(longestTokenLifetimeMs)} ` +
        `after it stops signing (the longest lifetime of a token it signs), not ` +
        `${formatDuration(retireAfterMs)}: tokens it signed would fail before they expire`,
    );
    this.name = 'SigningKeyRotationError';
    this.retireAfterMs = retireAfterMs;
    this.longestTokenLifetimeMs = longestTokenLifetimeMs;
  }
}

/** Default delay before a new key signs; must exceed every instance's key reload interval. */
export const DEFAULT_KEY_ACTIVATION_DELAY_MS = 3600 * 1000;

const FIRST_KEY_BACKDATE_MS = 60_000;

// Two instances booting on an empty table, or a rotation during a boot, queue on this lock.
const SIGNING_KEYS_LOCK = `select pg_advisory_xact_lock(hashtext('foodshare:signing-keys'))`;

export type SigningKeyStatus = 'pending' | 'active' | 'retired' | 'expired';

/** A key row as the key ring and the CLI read it. */
export interface StoredSigningKey {
  kid: string;
  alg: string;
  /** Public members only (kty, n, e, kid, alg, use). */
  publicJwk: JsonWebKey & { kid: string };
  /** `v1.<iv>.<ciphertext>.<tag>`, see encryptPrivateJwk. */
  privateKeyEncrypted: string;
  activatesAt: Date;
  retiresAt: Date | null;
  expiresAt: Date | null;
}

/** Published (in the JWKS) until it expires, including keys that do not sign yet. */
export function isPublished(key: StoredSigningKey, now: Date): boolean {
  return key.expiresAt === null || key.expiresAt > now;
}

/** May sign: activated and not yet retired. */
export function isActive(key: StoredSigningKey, now: Date): boolean {
  return key.activatesAt <= now && (key.retiresAt === null || key.retiresAt > now);
}

export function signingKeyStatus(key: StoredSigningKey, now: Date): SigningKeyStatus {
  if (!isPublished(key, now)) return 'expired';
  if (key.activatesAt > now) return 'pending';
  return isActive(key, now) ? 'active' : 'retired';
}

/** The key that signs at `now`: the newest active one (keys sorted newest first or not). */
export function currentSigningKey<T extends StoredSigningKey>(
  keys: readonly T[],
  now: Date,
): T | null {
  let best: T | null = null;
  for (const key of keys) {
    if (isActive(key, now) && (best === null || key.activatesAt > best.activatesAt)) best = key;
  }
  return best;
}

function toStored(row: SigningKeyEntity): StoredSigningKey {
  return {
    kid: row.kid,
    alg: row.alg,
    publicJwk: row.publicJwk as JsonWebKey & { kid: string },
    privateKeyEncrypted: row.privateKeyEncrypted,
    activatesAt: row.activatesAt,
    retiresAt: row.retiresAt ?? null,
    expiresAt: row.expiresAt ?? null,
  };
}

/** The JWK thumbprint (RFC 7638) of an RSA public key: a kid that names the key material itself. */
function rsaThumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return hash('sha256', canonical, 'base64url');
}

/** A fresh RSA 2048 key pair: public JWK and the private JWK encrypted under the KEK. */
export function generateSigningKeyMaterial(kek: Uint8Array): {
  kid: string;
  publicJwk: JsonWebKey & { kid: string };
  privateKeyEncrypted: string;
} {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicParts = publicKey.export({ format: 'jwk' });
  const kid = rsaThumbprint(publicParts);
  const publicJwk = {
    kty: publicParts.kty,
    n: publicParts.n,
    e: publicParts.e,
    kid,
    alg: SIGNING_KEY_ALGORITHM,
    use: 'sig',
  };
  const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: SIGNING_KEY_ALGORITHM };
  return { kid, publicJwk, privateKeyEncrypted: encryptPrivateJwk(privateJwk, kek, kid) };
}

/** Every key that is still published at `now` (expired ones are useless), newest first. */
export async function loadPublishedSigningKeys(
  em: EntityManager,
  now: Date = new Date(),
): Promise<StoredSigningKey[]> {
  const rows = await em.find(
    SigningKeyEntity,
    { $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
    { orderBy: { activatesAt: 'desc', id: 'desc' }, disableIdentityMap: true },
  );
  return rows.map(toStored);
}

/** Every stored key with its status at `now`, newest first (the CLI's `keys list`). */
export async function listSigningKeys(
  em: EntityManager,
  now: Date = new Date(),
): Promise<
  (Omit<StoredSigningKey, 'privateKeyEncrypted' | 'publicJwk'> & {
    status: SigningKeyStatus;
  })[]
> {
  const rows = await em.find(
    SigningKeyEntity,
    {},
    { orderBy: { activatesAt: 'desc', id: 'desc' }, disableIdentityMap: true },
  );
  return rows.map(toStored).map(({ kid, alg, activatesAt, retiresAt, expiresAt, ...key }) => ({
    kid,
    alg,
    activatesAt,
    retiresAt,
    expiresAt,
    status: signingKeyStatus({ kid, alg, activatesAt, retiresAt, expiresAt, ...key }, now),
  }));
}

function insertKey(em: EntityManager, kek: Uint8Array, activatesAt: Date): StoredSigningKey {
  const material = generateSigningKeyMaterial(kek);
  em.create(SigningKeyEntity, {
    kid: material.kid,
    alg: SIGNING_KEY_ALGORITHM,
    publicJwk: material.publicJwk,
    privateKeyEncrypted: material.privateKeyEncrypted,
    activatesAt,
  });
  return { ...material, alg: SIGNING_KEY_ALGORITHM, activatesAt, retiresAt: null, expiresAt: null };
}

/**
 * Makes sure a key signs at `now`: creates one, active at once, when none is active (the first
 * start of a deployment). Race-safe: concurrent callers queue on an advisory lock and the later
 * ones find the key of the first.
 */
export function ensureSigningKey(
  em: EntityManager,
  kek: Uint8Array,
  options: { now?: Date } = {},
): Promise<{ kid: string; created: boolean }> {
  return em.transactional(async (tx) => {
    await tx.execute(SIGNING_KEYS_LOCK);
    // Read the clock only once the lock is held: a caller that waited must see the key the
    // previous holder created as already active.
    const now = options.now ?? new Date();
    const active = currentSigningKey(await loadPublishedSigningKeys(tx, now), now);
    if (active) return { kid: active.kid, created: false };
    // Backdated: an instance whose clock lags a little behind must see it as active too,
    // rather than create a second one. A key that did not exist signed nothing before.
    const key = insertKey(tx, kek, new Date(now.getTime() - FIRST_KEY_BACKDATE_MS));
    await tx.flush();
    return { kid: key.kid, created: true };
  });
}

export interface RotateSigningKeyOptions {
  /** Delay before the new key signs; longer than every instance's key reload interval. */
  activateAfterMs?: number;
  /**
   * How long a replaced key stays published after it stops signing: at least
   * `longestTokenLifetimeMs`, or a token it signed at its last moment would outlive its key.
   */
  retireAfterMs?: number;
  /**
   * The longest lifetime of a token the keys sign: max(access-token, ID-token lifetime) of the
   * auth service (ACCESS_TOKEN_TTL_SECONDS). Default 1 hour.
   */
  longestTokenLifetimeMs?: number;
  now?: Date;
}

export interface SigningKeyRotation {
  kid: string;
  activatesAt: Date;
  /** The keys that stop signing when the new one starts, and when they leave the JWKS. */
  retired: { kid: string; retiresAt: Date; expiresAt: Date }[];
  /** Keys whose publication had ended, deleted by this rotation. */
  pruned: string[];
}

/**
 * `3600000` as `1h`, `90000` as `90s`: the largest unit that divides the duration (d, h, m, s,
 * else ms), as the CLI's duration options read it.
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  for (const [unit, size] of units) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

/**
 * Publishes a next key now that signs from `now + activateAfterMs`; every key that would still
 * sign then retires at that moment and stays published for `retireAfterMs` more. Verifiers thus
 * learn the new key before any token carries it, and keep the old one while its tokens live:
 * a `retireAfterMs` shorter than the longest token lifetime is refused (SigningKeyRotationError).
 */
export async function rotateSigningKey(
  em: EntityManager,
  kek: Uint8Array,
  options: RotateSigningKeyOptions = {},
): Promise<SigningKeyRotation> {
  const now = options.now ?? new Date();
  const activateAfterMs = options.activateAfterMs ?? DEFAULT_KEY_ACTIVATION_DELAY_MS;
  const retireAfterMs = options.retireAfterMs ?? DEFAULT_RETIRED_KEY_PUBLISHED_MS;
  const longestTokenLifetimeMs =
    options.longestTokenLifetimeMs ?? DEFAULT_LONGEST_SIGNED_TOKEN_LIFETIME_MS;
  if (!(activateAfterMs >= 0) || !(retireAfterMs >= 0) || !(longestTokenLifetimeMs >= 0)) {
    throw new RangeError('Rotation delays must be zero or positive');
  }
  // OIDC Core 10.1.1: a retired key stays published longer than the longest token it signed.
  if (retireAfterMs < longestTokenLifetimeMs) {
    throw new SigningKeyRotationError(retireAfterMs, longestTokenLifetimeMs);
  }
  const activatesAt = new Date(now.getTime() + activateAfterMs);
  return await em.transactional(async (tx) => {
    await tx.execute(SIGNING_KEYS_LOCK);
    const expired = await tx.find(
      SigningKeyEntity,
      { expiresAt: { $lte: now } },
      { fields: ['kid'] },
    );
    const replaced = await tx.find(SigningKeyEntity, {
      $or: [{ retiresAt: null }, { retiresAt: { $gt: activatesAt } }],
    });
    const retired = replaced.map((row) => {
      // A key still pending at the new activation never signs: it retires when it would start.
      row.retiresAt = row.activatesAt > activatesAt ? row.activatesAt : activatesAt;
      row.expiresAt = new Date(row.retiresAt.getTime() + retireAfterMs);
      return { kid: row.kid, retiresAt: row.retiresAt, expiresAt: row.expiresAt };
    });
    if (expired.length > 0) {
      await tx.nativeDelete(SigningKeyEntity, { kid: { $in: expired.map((row) => row.kid) } });
    }
    const key = insertKey(tx, kek, activatesAt);
    await tx.flush();
    return { kid: key.kid, activatesAt, retired, pruned: expired.map((row) => row.kid) };
  });
}
