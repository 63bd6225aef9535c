import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';

/**
 * A token signing key shared by every auth instance. A key is published in the JWKS before it
 * activates (so verifiers know it before it signs), stops signing when it retires, and leaves the
 * JWKS when it expires (after the last token it signed has expired).
 */
export const SigningKeyEntity = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_keys',
  properties: {
    id: identityId(),
    kid: p.string().length(100).unique(),
    alg: p.string().length(16).default('RS256'),
    publicJwk: p.json<Record<string, unknown>>().columnType('jsonb'),
    // Encrypted with a key from the environment; never leaves the auth service in clear.
    privateKeyEncrypted: p.text().hidden(),
    createdAt: createdAt(),
    activatesAt: p.datetime(),
    retiresAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
  },
  checks: [
    {
      name: 'signing_keys_retires_after_activation',
      expression: 'retires_at is null or retires_at >= activates_at',
    },
    {
      name: 'signing_keys_expires_after_retirement',
      expression: 'expires_at is null or (retires_at is not null and expires_at >= retires_at)',
    },
  ],
});
export type SigningKeyEntity = InferEntity<typeof SigningKeyEntity>;
