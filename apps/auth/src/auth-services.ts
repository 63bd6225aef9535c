import {
  DEVELOPMENT_CLIENT_SECRET_PEPPER,
  developmentKeyEncryptionKey,
  ensureSigningKey,
  parseKeyEncryptionKey,
  type MikroORM,
} from '@foodshare/domain';
import { metricsPlugin, type KeyValueStore } from '@foodshare/server-kit';
import {
  AccessTokenDenyList,
  AuthorizationCodeStore,
  ConsentStore,
  DpopProofs,
  RefreshFamilyStore,
  RefreshTokenCodec,
  RevocationLedger,
} from '@foodshare/server-kit/oauth-grants';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  BackchannelLogout,
  takeEndedSessionsWhileRunning,
} from './backchannel-logout/backchannel-logout.ts';
import type { AuthConfig } from './config.ts';
import { OAuthError } from './errors/oauth-errors.ts';
import { KeyRing } from './keys/key-ring.ts';
import { writeAudit, type AuditEvent } from './observability/audit.ts';
import { RememberedClients } from './clients/registered-clients.ts';
import { AuthMetrics } from './observability/metrics.ts';
import { AuthorizationRequestStore } from './stores/authorization-requests.store.ts';
import { DeviceAuthorizationStore } from './stores/device-authorizations.store.ts';
import { PushedAuthorizationRequestStore } from './stores/pushed-authorization-requests.store.ts';
import { GrantRevocation } from './tokens/grant-revocation.ts';

export interface OAuthSecrets {
  /** 32 bytes: encrypts the signing keys' private parts at rest (and may key refresh-token JWE). */
  keyEncryptionKey: Uint8Array;
  /** The HMAC key of client-secret hashes (verifyClientSecret from @foodshare/domain). */
  clientSecretPepper: string;
}

/**
 * The secrets from the configuration, which loadConfig has checked: both are required in
 * production, and the key-encryption key is 32 bytes (config.ts). Outside production, an unset
 * KEY_ENCRYPTION_KEY means the checkout's development key. It is generated once into a
 * git-ignored file that every process of the checkout shares, so a restarted development
 * server still decrypts the keys it stored. An unset pepper means the development pepper, so
 * the demo clients' secrets still match.
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

/** Writes an audit log line and counts the event (oauth_audit_events_total{event}). */
export type Audit = (
  request: FastifyRequest,
  event: AuditEvent,
  fields?: Record<string, unknown>,
) => void;

/**
 * Everything the endpoints and pages use, built once per app from the configuration, the
 * database and the key-value store. Each route plugin is registered with these as its options
 * and names the ones it reads, so "go to definition" reaches the class that does the work.
 */
export interface AuthServices {
  config: AuthConfig;
  /** `BASE_URL`, byte-identical in discovery and in every token's `iss`. */
  issuer: string;
  secrets: OAuthSecrets;
  /** The signing keys: `signJwt`, `verifyJwt`, `publicJwks`. */
  keys: KeyRing;
  /** Prometheus metrics (own registry, served at GET /metrics). */
  metrics: AuthMetrics;
  audit: Audit;
  kv: KeyValueStore;
  orm: MikroORM;
  /** The client rows client authentication read, checked against their versions (docs/oauth.md §6.4). */
  clientRows: RememberedClients;
  codes: AuthorizationCodeStore;
  /** Remembered consent per user and client. */
  consents: ConsentStore;
  /** Authorization requests parked while the user logs in or decides on consent. */
  authorizationRequests: AuthorizationRequestStore;
  /** Device authorizations from /oauth/device_authorization to their redemption (RFC 8628). */
  devices: DeviceAuthorizationStore;
  /** Requests pushed to /oauth/par, until /oauth/authorize takes them (RFC 9126). */
  pushedRequests: PushedAuthorizationRequestStore;
  /** Grants (families) with their refresh-token generations and access tokens. */
  families: RefreshFamilyStore;
  denyList: AccessTokenDenyList;
  /** Seals and opens refresh tokens (JWE under a key derived from KEY_ENCRYPTION_KEY). */
  refreshTokens: RefreshTokenCodec;
  /** Checks DPoP proofs and makes the server's DPoP nonces (RFC 9449). */
  dpop: DpopProofs;
  grantRevocation: GrantRevocation;
  backchannelLogout: BackchannelLogout;
}

export interface AuthInfrastructure {
  orm: MikroORM;
  kv: KeyValueStore;
  log: FastifyBaseLogger;
}

export function buildAuthServices(
  config: AuthConfig,
  { orm, kv, log }: AuthInfrastructure,
): AuthServices {
  const secrets = resolveSecrets(config, log);
  const metrics = new AuthMetrics();
  const keys = new KeyRing({
    orm,
    keyEncryptionKey: secrets.keyEncryptionKey,
    issuer: config.BASE_URL,
    refreshMs: config.SIGNING_KEY_REFRESH_SECONDS * 1000,
    log,
  });
  const codes = new AuthorizationCodeStore(kv, config.AUTHORIZATION_CODE_TTL_SECONDS * 1000);
  const ledger = new RevocationLedger(kv, () => orm.em.fork());
  const denyList = new AccessTokenDenyList(kv, ledger);
  const families = new RefreshFamilyStore({
    store: kv,
    denyList,
    ledger,
    refreshTtlMs: config.REFRESH_TOKEN_TTL_SECONDS * 1000,
  });
  const grantRevocation = new GrantRevocation({ config, kv, codes, families, ledger, log });
  return {
    config,
    issuer: config.BASE_URL,
    secrets,
    keys,
    metrics,
    audit: (request, event, fields) => writeAudit(metrics, request, event, fields),
    kv,
    orm,
    clientRows: new RememberedClients(),
    codes,
    consents: new ConsentStore(kv),
    authorizationRequests: new AuthorizationRequestStore(kv),
    pushedRequests: new PushedAuthorizationRequestStore(kv),
    devices: new DeviceAuthorizationStore(
      kv,
      config.DEVICE_CODE_TTL_SECONDS * 1000,
      config.DEVICE_CODE_INTERVAL_SECONDS,
    ),
    families,
    denyList,
    refreshTokens: new RefreshTokenCodec(secrets.keyEncryptionKey),
    dpop: new DpopProofs(kv, {
      nonceSecret: secrets.keyEncryptionKey,
      fail: (failure) => new OAuthError(failure),
    }),
    grantRevocation,
    backchannelLogout: new BackchannelLogout({
      config,
      keys,
      orm,
      kv,
      log,
      grantRevocation,
      families,
    }),
  };
}

/**
 * What the services need of Fastify's life cycle: the metrics route, the first signing key
 * before the first request, the sessions the REST service ended, and the deliveries stopped at
 * close.
 */
export const authServicesPlugin = fp(
  async (app: FastifyInstance, services: AuthServices) => {
    await app.register(metricsPlugin, { metrics: services.metrics });
    // The first start of a deployment creates the first key; instances booting together queue
    // on an advisory lock (ensureSigningKey). A key-encryption key that cannot open the stored
    // keys stops here, the development key of a checkout too (a development process pointed at
    // a shared or staging database): a wrong KEY_ENCRYPTION_KEY must not go unnoticed.
    app.addHook('onReady', async () => {
      const { kid, created } = await ensureSigningKey(
        services.orm.em.fork(),
        services.secrets.keyEncryptionKey,
      );
      if (created) app.log.info({ kid }, 'created the first signing key');
      await services.keys.prepare();
    });
    takeEndedSessionsWhileRunning(app, services.backchannelLogout, services.config);
  },
  { name: 'foodshare-auth-services', dependencies: ['foodshare-session'] },
);
