import type { KeyValueStore } from '@foodshare/server-kit';
import {
  clientGrantCutoffKey,
  issuedBeforeCutoff,
  parseCutoff,
} from './client-grant-cutoffs.store.ts';

/** What access-token verification found in the key-value store; `valid` when nothing. */
export type AccessTokenState = 'valid' | 'revoked' | 'client_grants_ended';

const denyKey = (jti: string) => `oauth:deny:${jti}`;

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

  /**
   * Whether an access token still stands: not on the deny list, and issued (`iat`, seconds)
   * after its client's grants were last ended (ClientGrantCutoffs). One round trip (MGET) for
   * both, as every userinfo request asks.
   */
  async stateOf(token: { jti: string; clientId: string; iat: number }): Promise<AccessTokenState> {
    const [denied, cutoff] = await this.#store.getMany(
      denyKey(token.jti),
      clientGrantCutoffKey(token.clientId),
    );
    if (denied != null) return 'revoked';
    if (issuedBeforeCutoff(token.iat * 1000, parseCutoff(cutoff ?? null))) {
      return 'client_grants_ended';
    }
    return 'valid';
  }
}
