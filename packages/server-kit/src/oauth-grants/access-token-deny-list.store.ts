import type { KeyValueStore } from '../kv/index.ts';
import {
  clientGrantCutoffKey,
  issuedBeforeCutoff,
  parseCutoff,
} from './client-grant-cutoffs.store.ts';
import {
  REVOCATIONS_RESTORED_KEY,
  type RevocationEntry,
  type RevocationLedger,
} from './revocation-ledger.store.ts';

/** What access-token verification found in the key-value store; `valid` when nothing. */
export type AccessTokenState = 'valid' | 'revoked' | 'client_grants_ended';

const denyKey = (jti: string) => `oauth:deny:${jti}`;

/**
 * Revoked access tokens by `jti`. Access tokens are self-contained JWTs, so revocation before
 * `exp` needs a look-up at every use (docs/design.md §4.4). An entry lives exactly as long as the
 * token it refuses: after `exp` the signature check refuses it anyway. Entries are kept in
 * PostgreSQL too (RevocationLedger), so that they survive a restart of the store.
 */
export class AccessTokenDenyList {
  readonly #store: KeyValueStore;
  readonly #ledger: RevocationLedger;

  constructor(store: KeyValueStore, ledger: RevocationLedger) {
    this.#store = store;
    this.#ledger = ledger;
  }

  /** The entry that denies a token; `expiresAt` in milliseconds since the epoch. */
  static entry(jti: string, expiresAt: number): RevocationEntry {
    return { key: denyKey(jti), value: '1', expiresAt };
  }

  /** `expiresAt` in milliseconds since the epoch; a token already expired needs no entry. */
  async deny(jti: string, expiresAt: number): Promise<void> {
    await this.#ledger.write([AccessTokenDenyList.entry(jti, expiresAt)]);
  }

  async isDenied(jti: string): Promise<boolean> {
    return (await this.#store.get(denyKey(jti))) !== null;
  }

  /**
   * Whether an access token still stands: not on the deny list, and issued (`iat`, seconds)
   * after its client's grants were last ended (ClientGrantCutoffs). One round trip (MGET) for
   * both, as every userinfo request asks, with the marker that tells whether the store still
   * holds every revocation; when it does not, they are restored first and read again.
   */
  async stateOf(token: { jti: string; clientId: string; iat: number }): Promise<AccessTokenState> {
    const keys = [
      denyKey(token.jti),
      clientGrantCutoffKey(token.clientId),
      REVOCATIONS_RESTORED_KEY,
    ];
    const first = await this.#store.getMany(...keys);
    const [denied, cutoff] = (await this.#ledger.restoreIfLost(first[2]))
      ? await this.#store.getMany(...keys)
      : first;
    if (denied != null) return 'revoked';
    if (issuedBeforeCutoff(token.iat * 1000, parseCutoff(cutoff ?? null))) {
      return 'client_grants_ended';
    }
    return 'valid';
  }
}
