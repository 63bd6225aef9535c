import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A revocation of the authorization server, kept in PostgreSQL as well as in the key-value store
 * that the token checks read: a denied access token, a revoked refresh-token family, the cutoff
 * of a client's grants. The key-value store may lose everything (a Redis without persistence
 * restarts empty); the authorization server then writes the unexpired rows back before it
 * trusts a token again, so no revoked token works again. `key` and `value` are the store's own
 * key and value; the row is void after `expires_at`, when the store's entry would have expired.
 */
export const OAuthRevocationEntity = defineEntity({
  name: 'OAuthRevocation',
  tableName: 'oauth_revocations',
  properties: {
    key: p.string().length(300).primary(),
    value: p.string().length(100),
    expiresAt: p.datetime().index('oauth_revocations_expires_at_index'),
  },
});
export type OAuthRevocationEntity = InferEntity<typeof OAuthRevocationEntity>;
