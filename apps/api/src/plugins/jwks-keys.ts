import { createPublicKey } from 'node:crypto';
import { Problem } from '@foodshare/server-kit';

export interface JwksKeysOptions {
  /** The one URL ever fetched (OAUTH_JWKS_URL). */
  url: string;
  /** An unknown kid fetches the keys again at most this often. */
  refetchMs: number;
  /** Keys older than this are fetched again, in the background (a retired key goes). */
  maxAgeMs: number;
  timeoutMs: number;
  fetch?: typeof fetch;
  now?: () => number;
}

// A key set is a few kilobytes; more is not a key set of ours.
const MAX_BODY_BYTES = 256 * 1024;

/** The signing key of a kid the authorization server does not publish (any more). */
export class UnknownKeyError extends Error {
  constructor() {
    super('No published key has this kid');
    this.name = 'UnknownKeyError';
  }
}

/**
 * The authorization server's published RS256 verification keys, by kid, as PEM (what fast-jwt
 * takes). Cached: fetched again in the background when they are older than `maxAgeMs` (the
 * request that finds them so is answered with them), or for a kid they lack while the request
 * waits, at most once in `refetchMs` (so tokens with made-up kids cannot make us fetch at will). One fetch
 * at a time; a failed fetch keeps the keys of the last one, and a kid nobody knows then answers
 * 503.
 */
export class JwksKeys {
  readonly #options: JwksKeysOptions;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  #keys = new Map<string, string>();
  #fetchedAt = Number.NEGATIVE_INFINITY;
  #triedAt = Number.NEGATIVE_INFINITY;
  #fetching: Promise<void> | null = null;

  constructor(options: JwksKeysOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
  }

  /** The PEM of the key named `kid`; UnknownKeyError, or a 503 Problem when out of reach. */
  async pemFor(kid: unknown): Promise<string> {
    if (typeof kid !== 'string') throw new UnknownKeyError();
    const now = this.#now();
    const stale = now - this.#fetchedAt > this.#options.maxAgeMs;
    const mayTry = now - this.#triedAt >= this.#options.refetchMs;
    const known = this.#keys.get(kid);
    if (known !== undefined) {
      // Old keys still serve while the fresh ones are fetched: no request waits for the fetch.
      if (stale && (mayTry || this.#fetching)) this.#refreshOnce().catch(() => undefined);
      return known;
    }
    let failure: unknown = null;
    if (mayTry || this.#fetching) {
      try {
        await this.#refreshOnce();
      } catch (error) {
        failure = error;
      }
    }
    const pem = this.#keys.get(kid);
    if (pem !== undefined) return pem;
    if (failure !== null) {
      throw Problem.unavailable(
        'TOKEN_KEYS_UNAVAILABLE',
        'The keys to check the access token with are out of reach. Try again.',
      );
    }
    throw new UnknownKeyError();
  }

  #refreshOnce(): Promise<void> {
    return (this.#fetching ??= this.#refresh().finally(() => (this.#fetching = null)));
  }

  async #refresh(): Promise<void> {
    this.#triedAt = this.#now();
    const response = await this.#fetch(this.#options.url, {
      signal: AbortSignal.timeout(this.#options.timeoutMs),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`the key set answered ${response.status}`);
    if (Number(response.headers.get('content-length')) > MAX_BODY_BYTES) {
      throw new Error('the key set is too large');
    }
    const text = await response.text();
    if (text.length > MAX_BODY_BYTES) throw new Error('the key set is too large');
    this.#keys = verificationKeys(JSON.parse(text) as unknown);
    this.#fetchedAt = this.#now();
  }
}

/** RFC 7517: the public RSA signature keys of a key set, by kid. */
function verificationKeys(set: unknown): Map<string, string> {
  const keys = new Map<string, string>();
  const list = (set as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new Error('not a key set');
  for (const jwk of list as Record<string, unknown>[]) {
    const usable =
      typeof jwk.kid === 'string' &&
      jwk.kty === 'RSA' &&
      (jwk.use === undefined || jwk.use === 'sig') &&
      (jwk.alg === undefined || jwk.alg === 'RS256') &&
      !('d' in jwk);
    if (!usable) continue;
    try {
      const key = createPublicKey({ key: jwk, format: 'jwk' });
      keys.set(jwk.kid as string, key.export({ type: 'spki', format: 'pem' }).toString());
    } catch {
      // A key we cannot read verifies nothing; the others still do.
    }
  }
  return keys;
}
