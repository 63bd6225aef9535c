import {
  DEVELOPMENT_CLIENT_SECRET_PEPPER,
  developmentKeyEncryptionKey,
  ensureSigningKey,
  parseKeyEncryptionKey,
} from '@foodshare/domain';
import { metricsPlugin } from '@foodshare/server-kit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthConfig } from './config.ts';
import { KeyRing } from './keys/key-ring.ts';
import { writeAudit, type AuditEvent } from './observability/audit.ts';
import { AuthMetrics } from './observability/metrics.ts';
import { AuthorizationCodeStore } from '@foodshare/server-kit/oauth-grants';

export type { AuditEvent } from './observability/audit.ts';
export { AUDIT_EVENTS } from './observability/audit.ts';
export { InvalidTokenError, KeyRing, NoSigningKeyError } from './keys/key-ring.ts';
export type { InvalidTokenReason, PublishedJwk } from './keys/key-ring.ts';
export type { AuthMetrics } from './observability/metrics.ts';

export interface OAuthSecrets {
  /** 32 bytes: encrypts the signing keys' private parts at rest (and may key refresh-token JWE). */
  keyEncryptionKey: Uint8Array;
  /** The HMAC key of client-secret hashes (verifyClientSecret from @foodshare/domain). */
  clientSecretPepper: string;
}

/** The authorization server's shared parts, built once per app and used by every endpoint. */
export interface OAuthCore {
  config: AuthConfig;
  /** `BASE_URL`, byte-identical in discovery and in every token's `iss`. */
  issuer: string;
  codes: AuthorizationCodeStore;
  /**
   * Signing keys from PostgreSQL. `keys.signJwt(payload, { typ })` signs RS256 with the active
   * key (header `kid`, `typ` when given; sets `iss`, defaults `iat`; the caller sets `exp`).
   * `keys.verifyJwt(token, { typ, audience })` returns the claims or throws InvalidTokenError
   * (`code: 'invalid_token'`, `reason`). `keys.publicJwks()` is the JWKS body.
   */
  keys: KeyRing;
  secrets: OAuthSecrets;
  /** Writes an audit log line and counts the event (oauth_audit_events_total{event}). */
  audit(request: FastifyRequest, event: AuditEvent, fields?: Record<string, unknown>): void;
  /**
   * Prometheus metrics (own registry, served at GET /metrics): `metrics.tokensIssued(grant,
   * clientId)` once per token response, `metrics.oauthError(code)` once per OAuth error answered.
   * Request latency per route is recorded by a hook.
   */
  metrics: AuthMetrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    oauth: OAuthCore;
  }
}

/**
 * The secrets from the configuration, which loadConfig has checked: both are required in
 * production, and the key-encryption key is 32 bytes (config.ts). Outside production an unset
 * KEY_ENCRYPTION_KEY is the checkout's development key, generated once into a git-ignored file
 * that every process of the checkout shares (so a restarted development server still decrypts
 * the keys it stored), and an unset pepper the development pepper (so the demo clients' secrets
 * still match).
 */
export function resolveSecrets(config: AuthConfig, log: FastifyBaseLogger): OAuthSecrets {
  return {
    keyEncryptionKey:
      config.KEY_ENCRYPTION_KEY === undefined
        ? developmentKey(log)
        : parseKeyEncryptionKey(config.KEY_ENCRYPTION_KEY)!,
    clientSecretPepper: config.CLIENT_SECRET_PEPPER ?? DEVELOPMENT_CLIENT_SECRET_PEPPER,
  };
}

function developmentKey(log: FastifyBaseLogger): Uint8Array {
  const development = developmentKeyEncryptionKey();
  log.warn(
    { file: development.file, created: development.created },
    'KEY_ENCRYPTION_KEY is not set: signing keys are encrypted with the development key of this checkout',
  );
  return development.key;
}

export const oauthCorePlugin = fp(
  async (app: FastifyInstance, { config }: { config: AuthConfig }) => {
    const secrets = resolveSecrets(config, app.log);
    const metrics = new AuthMetrics();
    const keys = new KeyRing({
      orm: app.orm,
      keyEncryptionKey: secrets.keyEncryptionKey,
      issuer: config.BASE_URL,
      refreshMs: config.SIGNING_KEY_REFRESH_SECONDS * 1000,
      log: app.log,
    });
    const oauth: OAuthCore = {
      config,
      issuer: config.BASE_URL,
      codes: new AuthorizationCodeStore(app.kv, config.AUTHORIZATION_CODE_TTL_SECONDS * 1000),
      keys,
      secrets,
      audit: (request, event, fields) => writeAudit(metrics, request, event, fields),
      metrics,
    };
    app.decorate('oauth', oauth);
    await app.register(metricsPlugin, { metrics });
    // The first start of a deployment creates the first key; instances booting together queue
    // on an advisory lock (ensureSigningKey). A key-encryption key that cannot open the stored
    // keys stops here, the development key of a checkout too (a development process pointed at
    // a shared or staging database): a wrong KEY_ENCRYPTION_KEY must not go unnoticed.
    app.addHook('onReady', async () => {
      const { kid, created } = await ensureSigningKey(app.orm.em.fork(), secrets.keyEncryptionKey);
      if (created) app.log.info({ kid }, 'created the first signing key');
      await keys.prepare();
    });
  },
  { name: 'foodshare-oauth-core', dependencies: ['foodshare-key-value-store', 'foodshare-orm'] },
);
