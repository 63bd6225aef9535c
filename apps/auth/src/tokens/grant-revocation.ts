import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OFFLINE_ACCESS } from '../clients/registered-clients.ts';
import { RefreshTokenCodec } from './refresh-token-codec.ts';
import {
  AccessTokenDenyList,
  type AccessTokenState,
  clientGrantCutoffs,
  RefreshFamilyStore,
  RevocationLedger,
} from '@foodshare/server-kit/oauth-grants';

/** Token state the endpoints and pages share (owner: token endpoint). */
export interface TokenState {
  /** Grants (families) with their refresh-token generations and access tokens. */
  families: RefreshFamilyStore;
  denyList: AccessTokenDenyList;
  /** Seals and opens refresh tokens (JWE under a key derived from KEY_ENCRYPTION_KEY). */
  refreshTokens: RefreshTokenCodec;
  /**
   * Revokes everything the user granted the client up to `issuedUpTo` (ms, default now): codes
   * not yet exchanged, every family (refresh tokens) and their unexpired access tokens. For
   * "connected apps", when the user revokes an app, whether its consent was remembered or not
   * (docs/oauth.md §6.2), and for a sign-out, up to its time. True when a family ended.
   */
  revokeGrant(
    userId: number,
    clientId: string,
    options?: { issuedUpTo?: number },
  ): Promise<boolean>;
  /**
   * A sign-out at `signedOutAt` (ms) for the user's grant with the client (docs/oauth.md §9.2):
   * like `revokeGrant` up to that time, but families granted offline_access stay (OIDC Core 11,
   * docs/oauth.md §3.8). The login sessions (sid, or null for a family that names none) of the
   * families begun by then, for the logout tokens: those ended, and those kept at the first
   * sign-out that finds them only; null when there is none to tell.
   */
  endSignedOutGrant(
    userId: number,
    clientId: string,
    signedOutAt: number,
  ): Promise<{ sids: (string | null)[] } | null>;
  /**
   * Whether an access token still stands: not on the deny list, and issued (`iat`, seconds)
   * after its client's grants were last ended. One round trip to the key-value store.
   */
  accessTokenState(token: {
    jti: string;
    clientId: string;
    iat: number;
  }): Promise<AccessTokenState>;
  /**
   * Voids every grant of the client issued up to `databaseNow` (PostgreSQL's clock) plus a margin
   * (remembered consents, codes, refresh families, access tokens): for a client being
   * deactivated or deleted, the `endGrants` of the domain's client administration.
   */
  endClientGrants(clientId: string, databaseNow: Date): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    tokenState: TokenState;
  }
}

/**
 * Refresh-token families, the access-token deny list and grant revocation. Decorates the app with
 * `tokenState`, what the other endpoints and pages need to revoke tokens.
 */
export const tokenStatePlugin = fp(
  async (app: FastifyInstance) => {
    const { config, secrets } = app.oauth;
    const ledger = new RevocationLedger(app.kv, () => app.orm.em.fork());
    const denyList = new AccessTokenDenyList(app.kv, ledger);
    const families = new RefreshFamilyStore({
      store: app.kv,
      denyList,
      ledger,
      refreshTtlMs: config.REFRESH_TOKEN_TTL_SECONDS * 1000,
    });
    // The cutoff must outlive every grant it voids, or that grant would return when it expires.
    const clientGrants = clientGrantCutoffs(ledger, config);
    const tokenState: TokenState = {
      families,
      denyList,
      refreshTokens: new RefreshTokenCodec(secrets.keyEncryptionKey),
      async revokeGrant(userId, clientId, { issuedUpTo = Date.now() } = {}) {
        // Codes not yet exchanged first: an exchange running now then either sees the mark or
        // has put its family in the index listed next (authorization-code grant).
        await app.oauth.codes.voidCodesOf(userId, clientId, issuedUpTo);
        const { before, after } = await families.familiesBegunBy(userId, clientId, issuedUpTo);
        await Promise.all(before.map((id) => families.revoke(id)));
        // A family begun since (the user signed in again after a sign-out handled late) stays.
        if (after.length === 0) await families.forgetGrant(userId, clientId);
        return before.length > 0;
      },
      async endSignedOutGrant(userId, clientId, signedOutAt) {
        await app.oauth.codes.voidCodesOf(userId, clientId, signedOutAt);
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
            app.kv.setIfAbsent(
              `oauth:signed-out-told:${id}`,
              '1',
              config.REFRESH_TOKEN_TTL_SECONDS * 1000,
            ),
          ),
        );
        const told = [...ended, ...kept.filter((_, index) => firstTold[index])];
        if (told.length === 0) return null;
        return { sids: [...new Set(told.map((id) => records.get(id)?.sid ?? null))] };
      },
      accessTokenState: (token) => denyList.stateOf(token),
      async endClientGrants(clientId, databaseNow) {
        const cutoff = await clientGrants.endGrants(clientId, databaseNow.getTime());
        app.log.info(
          { clientId, cutoff: new Date(cutoff).toISOString() },
          'ended every grant of the OAuth client issued up to the cutoff',
        );
      },
    };
    app.decorate('tokenState', tokenState);
  },
  { name: 'foodshare-token-state', dependencies: ['foodshare-oauth-core'] },
);
