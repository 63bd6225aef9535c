import type { KeyValueStore } from '@foodshare/server-kit';
import {
  clientGrantCutoffs,
  type AuthorizationCodeStore,
  type ClientGrantCutoffs,
  type RefreshFamilyStore,
  type RevocationLedger,
} from '@foodshare/server-kit/oauth-grants';
import type { FastifyBaseLogger } from 'fastify';
import { OFFLINE_ACCESS } from '../clients/registered-clients.ts';
import type { AuthConfig } from '../config.ts';

/**
 * Ends what a user granted a client, or every grant of a client: the codes not yet exchanged,
 * the refresh families and their access tokens. For "connected apps", a sign-out and the
 * deactivation or deletion of a client.
 */
export class GrantRevocation {
  readonly #config: AuthConfig;
  readonly #kv: KeyValueStore;
  readonly #codes: AuthorizationCodeStore;
  readonly #families: RefreshFamilyStore;
  readonly #clientGrants: ClientGrantCutoffs;
  readonly #log: FastifyBaseLogger;

  constructor(options: {
    config: AuthConfig;
    kv: KeyValueStore;
    codes: AuthorizationCodeStore;
    families: RefreshFamilyStore;
    ledger: RevocationLedger;
    log: FastifyBaseLogger;
  }) {
    this.#config = options.config;
    this.#kv = options.kv;
    this.#codes = options.codes;
    this.#families = options.families;
    // The cutoff must outlive every grant it voids, or that grant would return when it expires.
    this.#clientGrants = clientGrantCutoffs(options.ledger, options.config);
    this.#log = options.log;
  }

  /**
   * Revokes everything the user granted the client up to `issuedUpTo` (ms, default now), whether
   * its consent was remembered or not (docs/oauth.md §6.2). True when a family ended.
   */
  async revokeGrant(
    userId: number,
    clientId: string,
    { issuedUpTo = Date.now() }: { issuedUpTo?: number } = {},
  ): Promise<boolean> {
    const families = this.#families;
    // Codes not yet exchanged first: an exchange running now then either sees the mark or
    // has put its family in the index listed next (authorization-code grant).
    await this.#codes.voidCodesOf(userId, clientId, issuedUpTo);
    const { before, after } = await families.familiesBegunBy(userId, clientId, issuedUpTo);
    await Promise.all(before.map((id) => families.revoke(id)));
    // A family begun since (the user signed in again after a sign-out handled late) stays.
    if (after.length === 0) await families.forgetGrant(userId, clientId);
    return before.length > 0;
  }

  /**
   * A sign-out at `signedOutAt` (ms) for the user's grant with the client (docs/oauth.md §9.2).
   * Like `revokeGrant` up to that time, but families granted offline_access stay (OIDC Core 11,
   * docs/oauth.md §3.8). Answers the login sessions (sid, or null for a family that names none)
   * to tell in logout tokens, or null when there is none. A kept family is told once, at the
   * first sign-out that finds it.
   */
  async endSignedOutGrant(
    userId: number,
    clientId: string,
    signedOutAt: number,
  ): Promise<{ sids: (string | null)[] } | null> {
    const families = this.#families;
    await this.#codes.voidCodesOf(userId, clientId, signedOutAt);
    const { before, after, records } = await families.familiesBegunBy(
      userId,
      clientId,
      signedOutAt,
    );
    const offline = (id: string) => records.get(id)?.scopes.includes(OFFLINE_ACCESS) === true;
    const ended = before.filter((id) => !offline(id));
    const kept = before.filter(offline);
    await Promise.all(ended.map((id) => families.revoke(id)));
    if (after.length === 0 && kept.length === 0) await families.forgetGrant(userId, clientId);
    // A kept family's session ended at the first sign-out that found it: its client is
    // told of that session once, not again at every later sign-out of the user.
    const firstTold = await Promise.all(
      kept.map((id) =>
        this.#kv.setIfAbsent(
          `oauth:signed-out-told:${id}`,
          '1',
          this.#config.REFRESH_TOKEN_TTL_SECONDS * 1000,
        ),
      ),
    );
    const told = [...ended, ...kept.filter((_, index) => firstTold[index])];
    if (told.length === 0) return null;
    return { sids: [...new Set(told.map((id) => records.get(id)?.sid ?? null))] };
  }

  /**
   * Voids every grant of the client issued up to `databaseNow` (PostgreSQL's clock) plus a margin:
   * remembered consents, codes, refresh families, access tokens. The `endGrants` of the domain's
   * client administration, for a client being deactivated or deleted.
   */
  async endClientGrants(clientId: string, databaseNow: Date): Promise<void> {
    const cutoff = await this.#clientGrants.endGrants(clientId, databaseNow.getTime());
    this.#log.info(
      { clientId, cutoff: new Date(cutoff).toISOString() },
      'ended every grant of the OAuth client issued up to the cutoff',
    );
  }
}
