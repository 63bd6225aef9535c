import type { KeyValueStore } from '@foodshare/server-kit';

/** Exported so that userinfo can read it in one round trip with the client's grant cutoff. */
export const denyKey = (jti: string) => `oauth:deny:${jti}`;

/**
 * Revoked access tokens by `jti`. Access tokens are self-contained JWTs, so revocation before
 * `exp` needs a look-up at every use (DESIGN.md 4). An entry lives exactly as long as the token
 * it refuses: after `exp` the signature check refuses it anyway.
 */
export class AccessTokenDenyList {
  readonly #store: KeyValueStore;
  readonly #now: () => number;

  constructor(store: KeyValueStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** `expiresAt` in milliseconds since the epoch; a token already expired needs no entry. */
  async deny(jti: string, expiresAt: number): Promise<void> {
    const remainingMs = expiresAt - this.#now();
    if (remainingMs > 0) await this.#store.set(denyKey(jti), '1', remainingMs);
  }

  async isDenied(jti: string): Promise<boolean> {
    return (await this.#store.get(denyKey(jti))) !== null;
  }
}
