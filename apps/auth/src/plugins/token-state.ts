import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RefreshTokenCodec } from '../endpoints/token/refresh-token-codec.ts';
import { AccessTokenDenyList } from '../stores/access-token-deny-list.store.ts';
import { RefreshFamilyStore } from '../stores/refresh-families.store.ts';

/** Token state the endpoints and pages share (owner: token endpoint). */
export interface TokenState {
  /** Grants (families) with their refresh-token generations and access tokens. */
  families: RefreshFamilyStore;
  denyList: AccessTokenDenyList;
  /** Seals and opens refresh tokens (JWE under a key derived from KEY_ENCRYPTION_KEY). */
  refreshTokens: RefreshTokenCodec;
  /**
   * Revokes everything the user granted the client: every family (refresh tokens) and their
   * unexpired access tokens. For "connected apps" when a remembered consent is withdrawn.
   */
  revokeGrant(userId: number, clientId: string): Promise<void>;
  /** True when the access token with this `jti` was revoked before its expiry. */
  isAccessTokenRevoked(jti: string): Promise<boolean>;
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
    const denyList = new AccessTokenDenyList(app.kv);
    const families = new RefreshFamilyStore({
      store: app.kv,
      denyList,
      refreshTtlMs: config.REFRESH_TOKEN_TTL_SECONDS * 1000,
    });
    const tokenState: TokenState = {
      families,
      denyList,
      refreshTokens: new RefreshTokenCodec(secrets.keyEncryptionKey),
      async revokeGrant(userId, clientId) {
        const ids = await families.familiesOf(userId, clientId);
        await Promise.all(ids.map((id) => families.revoke(id)));
      },
      isAccessTokenRevoked: (jti) => denyList.isDenied(jti),
    };
    app.decorate('tokenState', tokenState);
  },
  { name: 'foodshare-token-state', dependencies: ['foodshare-oauth-core'] },
);
