import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { UserEntity } from './user.entity.ts';

export const OAuthClientEntity = defineEntity({
  name: 'OAuthClient',
  tableName: 'oauth_clients',
  properties: {
    id: identityId(),
    clientId: p.string().length(100).unique().check('char_length(client_id) >= 1'),
    name: p.string().length(200),
    confidential: p.boolean(),
    active: p.boolean().default(true),
    // Matched exactly, including scheme and trailing slash.
    redirectUris: p.array().check('cardinality(redirect_uris) >= 1'),
    // OpenID Connect RP-Initiated Logout 1.0 §3.1: where the client may send the user back
    // after logout, matched exactly like redirectUris; none registered, no redirect at all.
    postLogoutRedirectUris: p.array().default([]),
    // RFC 9126 6: the client's authorization requests must come through /oauth/par.
    requirePushedAuthorizationRequests: p.boolean().default(false),
    // RFC 9449 5.2: the client's token requests must carry a DPoP proof.
    requireDpop: p.boolean().default(false),
    // OpenID Connect Back-Channel Logout 1.0 §2.2: where logout tokens are POSTed; null, none.
    backchannelLogoutUri: p.string().length(2000).nullable(),
    // Shown on the consent page (OpenID Connect Dynamic Client Registration 1.0 §2), https
    // only, never fetched by the server; null, none.
    logoUri: p.string().length(2000).nullable(),
    clientUri: p.string().length(2000).nullable(),
    policyUri: p.string().length(2000).nullable(),
    tosUri: p.string().length(2000).nullable(),
    scopes: p.array(),
    grantTypes: p.array(),
    // Empty: open to every user; otherwise the user must be a member of one of them.
    requiredRegionIds: p.array<number>(Number, String).columnType('int[]').default([]),
    // HMAC-SHA-256 (hex) of the secret with a server-side pepper; the secret itself is shown once and never stored.
    secretHash: p.string().length(128).nullable().hidden(),
    // During a rotation the previous secret stays valid until it expires.
    previousSecretHash: p.string().length(128).nullable().hidden(),
    previousSecretExpiresAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onUpdate(() => new Date()),
    updatedBy: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
  },
  checks: [
    { name: 'oauth_clients_scopes_include_openid', expression: "'openid' = any (scopes)" },
    {
      name: 'oauth_clients_scopes_known',
      expression: "scopes <@ array['openid', 'profile', 'email', 'regions', 'api']::text[]",
    },
    {
      name: 'oauth_clients_grant_types_include_code',
      expression: "'authorization_code' = any (grant_types)",
    },
    {
      name: 'oauth_clients_grant_types_known',
      expression:
        "grant_types <@ array['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']::text[]",
    },
    {
      name: 'oauth_clients_confidential_has_secret',
      expression: 'not confidential or secret_hash is not null',
    },
    {
      name: 'oauth_clients_previous_secret_expires',
      expression: '(previous_secret_hash is null) = (previous_secret_expires_at is null)',
    },
  ],
});
export type OAuthClientEntity = InferEntity<typeof OAuthClientEntity>;

/** Kept after the client is deleted, so it names the client by its client_id string, not by a foreign key. */
export const OAuthClientAuditLogEntity = defineEntity({
  name: 'OAuthClientAuditLog',
  tableName: 'oauth_client_audit_log',
  properties: {
    id: identityId(),
    clientId: p.string().length(100),
    actor: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    action: p.text(),
    changes: p.json<Record<string, unknown>>().columnType('jsonb').defaultRaw(`'{}'`),
    createdAt: createdAt(),
  },
  indexes: [
    {
      name: 'oauth_client_audit_log_client_id_created_at_index',
      columns: [{ name: 'client_id' }, { name: 'created_at', sort: 'DESC' }],
    },
  ],
});
export type OAuthClientAuditLogEntity = InferEntity<typeof OAuthClientAuditLogEntity>;
