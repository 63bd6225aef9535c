import { createHmac, hash, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore } from '../kv/index.ts';
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from 'jose';
import { challenge } from './www-authenticate.ts';

/** RFC 9449 5.1: the proof algorithms we accept, advertised in discovery. Asymmetric only. */
export const DPOP_SIGNING_ALGORITHMS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA', 'Ed25519'];

// RFC 9449 11.1: a proof is fresh for a short while. Its jti is remembered a little longer
// than a proof can be accepted, so it cannot be used twice.
const PROOF_LIFETIME_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 60;
const JTI_MEMORY_MS = (PROOF_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS + 5) * 1000;
// RFC 9449 8: a nonce stands for its window and the windows beside it, so a cached nonce
// survives a window's end and an instance whose clock is a little behind.
const NONCE_WINDOW_SECONDS = 300;
// A proof is a few hundred bytes. The bounds keep an unauthenticated caller from making us
// parse or verify something large (an RSA key with a huge exponent costs 30 times more).
const MAX_PROOF_LENGTH = 4096;
const MAX_RSA_MODULUS_BYTES = 512;

// A JWK's private members: a proof that carries one has leaked its key (RFC 9449 4.2).
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** What a request must prove about itself: where it went, and the token it presents. */
export interface DpopProofTarget {
  method: string;
  /** The endpoint's URL without query and fragment (RFC 9449 4.3 `htu`). */
  url: string;
  /** At a resource: the access token, whose hash the proof must carry (`ath`). */
  accessToken?: string;
  /** At the token endpoint the proof must carry a nonce of ours (RFC 9449 8). */
  requireNonce: boolean;
}

/**
 * Why a request's proof was refused, in the terms of RFC 9449 7.1: 400 at the token endpoint,
 * 401 with a `DPoP` challenge at a resource. Each service answers it in its own format.
 */
export interface DpopProofFailure {
  error: 'invalid_dpop_proof' | 'use_dpop_nonce';
  description: string;
  status: number;
  headers: Record<string, string>;
}

/** The error `DpopProofs` throws unless its owner makes its own (`DpopProofsOptions.fail`). */
export class DpopProofError extends Error implements DpopProofFailure {
  readonly error: DpopProofFailure['error'];
  readonly description: string;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(failure: DpopProofFailure) {
    super(failure.description);
    this.name = 'DpopProofError';
    this.error = failure.error;
    this.description = failure.description;
    this.status = failure.status;
    this.headers = failure.headers;
  }
}

/** RFC 9449 7.1: a proof that fails its checks; a 401 carries the `DPoP` challenge. */
export function invalidDpopProofFailure(description: string, status = 400): DpopProofFailure {
  return {
    error: 'invalid_dpop_proof',
    description,
    status,
    headers:
      status === 401
        ? { 'www-authenticate': dpopChallenge('invalid_dpop_proof', description) }
        : {},
  };
}

/** RFC 9449 7.1: a `DPoP` challenge naming the error and the algorithms we accept. */
export function dpopChallenge(error: string, description?: string): string {
  return challenge('DPoP', {
    error,
    error_description: description,
    algs: DPOP_SIGNING_ALGORITHMS.join(' '),
  });
}

/** RFC 9449 6.1: the thumbprint of the key a token is bound to (`cnf.jkt`), if any. */
export function boundKeyOf(claims: Record<string, unknown>): string | undefined {
  const { cnf } = claims;
  if (typeof cnf !== 'object' || cnf === null) return undefined;
  const { jkt } = cnf as { jkt?: unknown };
  return typeof jkt === 'string' ? jkt : undefined;
}

/** A proof whose signature and claims were checked: its key's thumbprint, not yet used up. */
export interface CheckedDpopProof {
  /** The RFC 7638 thumbprint of the proof's key, what `cnf.jkt` holds. */
  jkt: string;
  jti: string;
}

export interface DpopProofsOptions {
  /**
   * The secret the nonces are made from (the authorization server's key-encryption key).
   * Without it the checker hands out and accepts no nonces: a resource server needs none.
   */
  nonceSecret?: Uint8Array;
  now?: () => number;
  /** The error a refused proof is thrown as, in the service's own format. */
  fail?: (failure: DpopProofFailure) => Error;
}

/**
 * Checks DPoP proofs (RFC 9449 4.3) and hands out the server's nonces (RFC 9449 8). A nonce is
 * made from the time window and an HMAC of it, so every instance that shares the key-encryption
 * key accepts it, and nothing is stored for it. Checking stores nothing either: the caller uses
 * a proof up (`consume`) only once the request is authenticated, so an anonymous caller cannot
 * fill the store with proofs. Shared by the authorization server and the REST API.
 */
export class DpopProofs {
  readonly #kv: KeyValueStore;
  readonly #nonceKey: Buffer | null;
  readonly #now: () => number;
  readonly #fail: (failure: DpopProofFailure) => Error;

  constructor(kv: KeyValueStore, options: DpopProofsOptions = {}) {
    this.#kv = kv;
    const { nonceSecret } = options;
    this.#nonceKey =
      nonceSecret === undefined
        ? null
        : Buffer.from(hkdfSync('sha256', nonceSecret, Buffer.alloc(0), 'dpop-nonce', 32));
    this.#now = options.now ?? Date.now;
    this.#fail = options.fail ?? ((failure) => new DpopProofError(failure));
  }

  /** The nonce a client sends in its next proof (the `DPoP-Nonce` header). */
  nonce(): string {
    return this.#nonceFor(this.#window());
  }

  /**
   * The proof's key and jti, or null when the request carries no proof. Throws
   * `invalid_dpop_proof`, or `use_dpop_nonce` for a missing or stale nonce, with a fresh one in
   * `DPoP-Nonce`.
   */
  async check(
    header: string | string[] | undefined,
    target: DpopProofTarget,
    status = 400,
  ): Promise<CheckedDpopProof | null> {
    if (header === undefined) return null;
    // Node joins repeated headers with ", "; a compact JWT has neither character.
    if (Array.isArray(header) || header.includes(',')) {
      throw this.#invalid('Exactly one DPoP header is allowed', status);
    }
    if (header.length > MAX_PROOF_LENGTH) throw this.#invalid('The proof is too long', status);
    const { jwk, payload } = await this.#verifiedProof(header, status);
    const nowSeconds = Math.floor(this.#now() / 1000);
    const { jti, htm, htu, iat, ath, nonce } = payload;
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) {
      throw this.#invalid('The proof needs a jti', status);
    }
    if (htm !== target.method) throw this.#invalid('htm does not match the request', status);
    if (typeof htu !== 'string' || !sameResource(htu, target.url)) {
      throw this.#invalid('htu does not match the request', status);
    }
    if (
      typeof iat !== 'number' ||
      iat > nowSeconds + CLOCK_SKEW_SECONDS ||
      iat < nowSeconds - PROOF_LIFETIME_SECONDS
    ) {
      throw this.#invalid('The proof is not fresh (iat)', status);
    }
    if (target.accessToken !== undefined) {
      const expected = hash('sha256', target.accessToken, 'base64url');
      if (ath !== expected) throw this.#invalid('ath does not match the access token', status);
    }
    if (target.requireNonce && !this.#nonceIsCurrent(nonce)) throw this.#useNonce(status);
    return { jkt: await calculateJwkThumbprint(jwk, 'sha256'), jti };
  }

  /** Uses the proof up: a second request with the same proof is refused. */
  async consume(proof: CheckedDpopProof, status = 400): Promise<void> {
    const fresh = await this.#kv.setIfAbsent(
      `dpop:jti:${hash('sha256', `${proof.jkt}.${proof.jti}`, 'base64url')}`,
      '1',
      JTI_MEMORY_MS,
    );
    if (!fresh) throw this.#invalid('The proof was used before', status);
  }

  #invalid(description: string, status: number): Error {
    return this.#fail(invalidDpopProofFailure(description, status));
  }

  async #verifiedProof(proof: string, status: number): Promise<{ jwk: JWK; payload: JWTPayload }> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(proof);
    } catch {
      throw this.#invalid('The proof is not a JWT', status);
    }
    if (header.typ !== 'dpop+jwt') throw this.#invalid('The proof must be typ dpop+jwt', status);
    if (typeof header.alg !== 'string' || !DPOP_SIGNING_ALGORITHMS.includes(header.alg)) {
      throw this.#invalid('The proof algorithm is not supported', status);
    }
    const { jwk } = header;
    if (
      typeof jwk !== 'object' ||
      jwk === null ||
      !['EC', 'RSA', 'OKP'].includes(String(jwk.kty)) ||
      PRIVATE_MEMBERS.some((member) => member in jwk)
    ) {
      throw this.#invalid('The proof must carry a public key (jwk)', status);
    }
    // RSA with the usual exponent and at most 4096 bits: anything else only costs us time.
    if (
      jwk.kty === 'RSA' &&
      (jwk.e !== 'AQAB' || Buffer.from(String(jwk.n), 'base64url').length > MAX_RSA_MODULUS_BYTES)
    ) {
      throw this.#invalid('The proof key must be RSA with e=65537 and at most 4096 bits', status);
    }
    try {
      const key = await importJWK(jwk, header.alg);
      const { payload } = await jwtVerify(proof, key, {
        typ: 'dpop+jwt',
        algorithms: [header.alg],
      });
      return { jwk, payload };
    } catch {
      throw this.#invalid('The proof signature does not verify', status);
    }
  }

  #window(): number {
    return Math.floor(this.#now() / 1000 / NONCE_WINDOW_SECONDS);
  }

  #nonceFor(window: number): string {
    if (this.#nonceKey === null) throw new Error('DpopProofs: no nonceSecret, so no nonces');
    const mac = createHmac('sha256', this.#nonceKey).update(String(window)).digest();
    return `${window.toString(36)}.${mac.subarray(0, 16).toString('base64url')}`;
  }

  #nonceIsCurrent(nonce: unknown): boolean {
    if (typeof nonce !== 'string') return false;
    const current = this.#window();
    return [current - 1, current, current + 1].some((window) => {
      const expected = Buffer.from(this.#nonceFor(window));
      const given = Buffer.from(nonce);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }

  #useNonce(status: number): Error {
    const description = 'Resend the request with the nonce in DPoP-Nonce';
    return this.#fail({
      error: 'use_dpop_nonce',
      description,
      status,
      headers: {
        'dpop-nonce': this.nonce(),
        ...(status === 401
          ? { 'www-authenticate': dpopChallenge('use_dpop_nonce', description) }
          : {}),
      },
    });
  }
}

/** RFC 9449 4.3: the same scheme, authority and path; query and fragment do not count. */
function sameResource(htu: string, url: string): boolean {
  try {
    const given = new URL(htu);
    const expected = new URL(url);
    return given.origin === expected.origin && given.pathname === expected.pathname;
  } catch {
    return false;
  }
}
