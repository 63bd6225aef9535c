import { LockMode } from '@mikro-orm/core';
import { OAuthClientAuditLogEntity, OAuthClientEntity } from '../entities/oauth-client.entity.ts';
import { RegionEntity } from '../entities/region.entity.ts';
import { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import { AccountError } from '../accounts/account-errors.ts';
import { generateClientSecret, hashClientSecret, verifyClientSecret } from './client-secrets.ts';
import {
  validateOAuthClientInput,
  type OAuthClientInput,
  type OAuthClientValidationOptions,
} from './oauth-clients.service.ts';

/** How long the previous secret still works after a regeneration: time to roll it out. */
export const PREVIOUS_CLIENT_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** A client named by its row id (admin pages) or by its client_id (command line). */
export type OAuthClientRef = { id: number } | { clientId: string };

export interface OAuthClientChangeOptions {
  /** Who makes the change, for the audit trail; null for the command line. */
  actorId: number | null;
}

export interface OAuthClientEndOptions extends OAuthClientChangeOptions {
  /**
   * Ends every grant the client holds: users' remembered consents, codes, refresh and access
   * tokens (they live in the authorization server's key-value store, which this package does
   * not know), by voiding those issued up to `databaseNow` plus a margin. Required, so that no
   * caller can forget it. Called twice when a client is deactivated or deleted:
   *
   * 1. Inside the transaction, after the change is flushed and before it commits: if it throws,
   *    the change is rolled back, so a client is never gone while its grants live on (a client_id
   *    registered again later, or the client reactivated, must not inherit them).
   * 2. Again after the commit. Until the commit, the endpoints (which read the client row without
   *    a lock) still see the client active and keep issuing grants, dated after the first call's
   *    time when the commit is slow: only a time taken after the commit is sure to follow every
   *    grant issued to the client as it was. If this call throws, the change stands (it has
   *    committed) and the error reaches the caller; the first call still voids what it covers.
   *
   * `databaseNow` is PostgreSQL's clock_timestamp() each time: one clock for every instance that
   * ends grants, so a cutoff never depends on which instance's clock wrote it. The grants are
   * dated by the instances that issue them; the callee's margin covers their skew against the
   * database and the requests still in flight. The caller must not hold a transaction of its
   * own, or the second call would run before that transaction commits.
   */
  endGrants: (clientId: string, databaseNow: Date) => Promise<void>;
}

export interface OAuthClientSecretOptions
  extends OAuthClientChangeOptions, OAuthClientValidationOptions {
  /** The server-side pepper of client secret hashes (CLIENT_SECRET_PEPPER). */
  pepper: string;
}

/** Everything of a client but its id, which identifies it for users' consents and tokens. */
export type OAuthClientUpdate = Omit<OAuthClientInput, 'clientId' | 'active'>;

export interface UpdatedOAuthClient {
  client: OAuthClientEntity;
  /** The fields whose value changed; empty when the update changed nothing (no audit row). */
  changedFields: string[];
  /** A fresh secret when a public client became confidential: shown once. */
  secret: string | null;
}

export interface RegeneratedClientSecret {
  client: OAuthClientEntity;
  /** In clear, this once. */
  secret: string;
  /** Until then the previous secret is accepted too. */
  previousSecretExpiresAt: Date;
}

type AuditAction =
  'update' | 'activate' | 'deactivate' | 'delete' | 'regenerate_secret' | 'end_previous_secret';

const SETTING_FIELDS = [
  'name',
  'confidential',
  'redirectUris',
  'postLogoutRedirectUris',
  'requirePushedAuthorizationRequests',
  'requireDpop',
  'backchannelLogoutUri',
  'logoUri',
  'clientUri',
  'policyUri',
  'tosUri',
  'scopes',
  'grantTypes',
  'requiredRegionIds',
] as const;

function actorRef(em: EntityManager, actorId: number | null) {
  return actorId === null ? null : em.getReference(UserEntity, actorId, { wrapped: true });
}

function refFilter(ref: OAuthClientRef) {
  return 'id' in ref ? { id: ref.id } : { clientId: ref.clientId };
}

function describeRef(ref: OAuthClientRef): string {
  return 'id' in ref ? `the id ${ref.id}` : `the client id ${ref.clientId}`;
}

/** PostgreSQL's clock_timestamp(): the current time, not the transaction's start like now(). */
async function databaseNow(em: EntityManager): Promise<Date> {
  const [row] = await em.execute<{ now_ms: number }[]>(
    'select (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms',
  );
  if (!row) throw new Error('PostgreSQL did not tell its time');
  return new Date(row.now_ms);
}

/**
 * Runs `change` in a transaction that ends the client's grants before it commits (`endGrants`
 * rolls it back when it fails), then ends them once more after the commit: see `endGrants`.
 */
async function endingGrants<T extends { clientId: string }>(
  em: EntityManager,
  options: OAuthClientEndOptions,
  change: (tx: EntityManager) => Promise<{ result: T; endsGrants: boolean }>,
): Promise<T> {
  const { result, endsGrants } = await em.transactional(async (tx) => {
    const done = await change(tx);
    if (done.endsGrants) {
      await tx.flush();
      await options.endGrants(done.result.clientId, await databaseNow(tx));
    }
    return done;
  });
  if (endsGrants) await options.endGrants(result.clientId, await databaseNow(em));
  return result;
}

/** The client locked for the rest of the transaction, so concurrent admins change it in turn. */
async function lockClient(em: EntityManager, ref: OAuthClientRef): Promise<OAuthClientEntity> {
  const valid = 'id' in ref ? Number.isSafeInteger(ref.id) : true;
  const client = valid
    ? await em.findOne(OAuthClientEntity, refFilter(ref), { lockMode: LockMode.PESSIMISTIC_WRITE })
    : null;
  if (!client)
    throw new AccountError('CLIENT_NOT_FOUND', `No OAuth client has ${describeRef(ref)}`);
  return client;
}

function audit(
  em: EntityManager,
  client: OAuthClientEntity,
  action: AuditAction,
  actorId: number | null,
  changes: Record<string, unknown>,
): void {
  em.create(OAuthClientAuditLogEntity, {
    clientId: client.clientId,
    actor: actorId,
    action,
    changes,
  });
}

async function assertRegionsExist(em: EntityManager, regionIds: readonly number[]): Promise<void> {
  if (regionIds.length === 0) return;
  const found = await em.find(RegionEntity, { id: { $in: [...regionIds] } }, { fields: ['id'] });
  const missing = regionIds.filter((id) => !found.some((region) => region.id === id));
  if (missing.length > 0) {
    throw new AccountError('REGION_NOT_FOUND', `No region has the id ${missing.join(', ')}`);
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, i) => value === b[i]);
  }
  return a === b;
}

/**
 * Changes a client's settings. The audit row names each changed field with its old and new
 * value, never a secret: a public client turned confidential gets a new secret (returned once),
 * a confidential one turned public loses its secrets. Change and audit row commit together.
 */
export async function updateOAuthClient(
  em: EntityManager,
  ref: OAuthClientRef,
  update: OAuthClientUpdate,
  options: OAuthClientSecretOptions,
): Promise<UpdatedOAuthClient> {
  return em.transactional(async (tx) => {
    const client = await lockClient(tx, ref);
    const settings = validateOAuthClientInput(
      {
        ...update,
        clientId: client.clientId,
        // An update that does not name them (an older caller) keeps them rather than erasing them.
        postLogoutRedirectUris: update.postLogoutRedirectUris ?? client.postLogoutRedirectUris,
        requirePushedAuthorizationRequests:
          update.requirePushedAuthorizationRequests ?? client.requirePushedAuthorizationRequests,
        requireDpop: update.requireDpop ?? client.requireDpop,
        backchannelLogoutUri:
          update.backchannelLogoutUri === undefined
            ? client.backchannelLogoutUri
            : update.backchannelLogoutUri,
        logoUri: update.logoUri === undefined ? client.logoUri : update.logoUri,
        clientUri: update.clientUri === undefined ? client.clientUri : update.clientUri,
        policyUri: update.policyUri === undefined ? client.policyUri : update.policyUri,
        tosUri: update.tosUri === undefined ? client.tosUri : update.tosUri,
      },
      { ...options, storedBackchannelLogoutUri: client.backchannelLogoutUri },
    );
    await assertRegionsExist(tx, settings.requiredRegionIds);

    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of SETTING_FIELDS) {
      if (!sameValue(client[field], settings[field])) {
        changes[field] = { from: client[field], to: settings[field] };
      }
    }
    const changedFields = Object.keys(changes);
    if (changedFields.length === 0) return { client, changedFields, secret: null };

    let secret: string | null = null;
    const secretChange: Record<string, string> = {};
    if (settings.confidential && !client.confidential) {
      secret = generateClientSecret();
      client.secretHash = hashClientSecret(secret, options.pepper);
      secretChange.secret = 'set';
    } else if (!settings.confidential && client.confidential) {
      client.secretHash = null;
      client.previousSecretHash = null;
      client.previousSecretExpiresAt = null;
      secretChange.secret = 'removed';
    }
    Object.assign(client, {
      name: settings.name,
      confidential: settings.confidential,
      redirectUris: settings.redirectUris,
      postLogoutRedirectUris: settings.postLogoutRedirectUris,
      requirePushedAuthorizationRequests: settings.requirePushedAuthorizationRequests,
      requireDpop: settings.requireDpop,
      backchannelLogoutUri: settings.backchannelLogoutUri,
      logoUri: settings.logoUri,
      clientUri: settings.clientUri,
      policyUri: settings.policyUri,
      tosUri: settings.tosUri,
      scopes: settings.scopes,
      grantTypes: settings.grantTypes,
      requiredRegionIds: settings.requiredRegionIds,
    });
    client.updatedBy = actorRef(tx, options.actorId);
    client.updatedAt = new Date();
    audit(tx, client, 'update', options.actorId, { ...changes, ...secretChange });
    return { client, changedFields, secret };
  });
}

/**
 * Activates or deactivates a client; a deactivated client is unknown to the protocol endpoints.
 * `changed` is false when it already was so (and then no audit row is written).
 */
export async function setOAuthClientActive(
  em: EntityManager,
  ref: OAuthClientRef,
  active: boolean,
  options: OAuthClientEndOptions,
): Promise<{ clientId: string; changed: boolean }> {
  return endingGrants<{ clientId: string; changed: boolean }>(em, options, async (tx) => {
    const client = await lockClient(tx, ref);
    if (client.active === active) {
      return { result: { clientId: client.clientId, changed: false }, endsGrants: false };
    }
    client.active = active;
    client.updatedBy = actorRef(tx, options.actorId);
    client.updatedAt = new Date();
    audit(tx, client, active ? 'activate' : 'deactivate', options.actorId, {
      active: { from: !active, to: active },
    });
    return { result: { clientId: client.clientId, changed: true }, endsGrants: !active };
  });
}

/**
 * Deletes a client. The audit row keeps its last settings (it outlives the client, naming it by
 * client_id), so the trail still tells what was removed. Its grants end with it (`endGrants`):
 * the client_id may be registered again, by someone else.
 */
export async function deleteOAuthClient(
  em: EntityManager,
  ref: OAuthClientRef,
  options: OAuthClientEndOptions,
): Promise<{ clientId: string }> {
  return endingGrants(em, options, async (tx) => {
    const client = await lockClient(tx, ref);
    const snapshot = Object.fromEntries(SETTING_FIELDS.map((field) => [field, client[field]]));
    audit(tx, client, 'delete', options.actorId, { ...snapshot, active: client.active });
    tx.remove(client);
    return { result: { clientId: client.clientId }, endsGrants: true };
  });
}

/**
 * A new secret for a confidential client, returned once. The current one becomes the previous
 * secret and stays valid for the grace period, so the client's operators can switch without an
 * outage: two secrets are active during a rotation, never more (an older previous one ends).
 */
export async function regenerateOAuthClientSecret(
  em: EntityManager,
  ref: OAuthClientRef,
  options: OAuthClientSecretOptions & { graceMs?: number; now?: Date },
): Promise<RegeneratedClientSecret> {
  return em.transactional(async (tx) => {
    const client = await lockClient(tx, ref);
    if (!client.confidential || client.secretHash === null) {
      throw new AccountError(
        'CLIENT_NOT_CONFIDENTIAL',
        `The client ${client.clientId} is public and has no secret`,
      );
    }
    const now = options.now ?? new Date();
    const previousSecretExpiresAt = new Date(
      now.getTime() + (options.graceMs ?? PREVIOUS_CLIENT_SECRET_GRACE_MS),
    );
    const secret = generateClientSecret();
    client.previousSecretHash = client.secretHash;
    client.previousSecretExpiresAt = previousSecretExpiresAt;
    client.secretHash = hashClientSecret(secret, options.pepper);
    client.updatedBy = actorRef(tx, options.actorId);
    client.updatedAt = now;
    audit(tx, client, 'regenerate_secret', options.actorId, {
      secret: 'regenerated',
      previousSecretExpiresAt: previousSecretExpiresAt.toISOString(),
    });
    return { client, secret, previousSecretExpiresAt };
  });
}

/**
 * Ends the previous secret of a rotation at once instead of when its grace period runs out: for
 * a secret that may have leaked, which must not keep working for up to a day. From then on only
 * the current secret authenticates the client. `ended` is false when there was no previous
 * secret still valid (a second click, or it ran out meanwhile); then nothing is written.
 */
export async function endPreviousOAuthClientSecret(
  em: EntityManager,
  ref: OAuthClientRef,
  options: OAuthClientChangeOptions & { now?: Date },
): Promise<{ clientId: string; ended: boolean }> {
  return em.transactional(async (tx) => {
    const client = await lockClient(tx, ref);
    const now = options.now ?? new Date();
    const validUntil = client.previousSecretExpiresAt;
    const stillValid = client.previousSecretHash != null && validUntil != null && validUntil > now;
    if (!stillValid) return { clientId: client.clientId, ended: false };
    client.previousSecretHash = null;
    client.previousSecretExpiresAt = null;
    client.updatedBy = actorRef(tx, options.actorId);
    client.updatedAt = now;
    audit(tx, client, 'end_previous_secret', options.actorId, {
      previousSecretExpiresAt: { from: validUntil.toISOString(), to: now.toISOString() },
    });
    return { clientId: client.clientId, ended: true };
  });
}

/** The secret columns of a client, as the token endpoint reads them (an entity will do). */
export interface ClientSecretHashes {
  secretHash?: string | null;
  previousSecretHash?: string | null;
  previousSecretExpiresAt?: Date | null;
}

/**
 * Whether a presented secret is the client's current one, or its previous one within the grace
 * period of a rotation. Both comparisons always run, so the timing tells nothing about which.
 */
export function clientSecretMatches(
  hashes: ClientSecretHashes,
  secret: string,
  pepper: string,
  now: Date = new Date(),
): boolean {
  const { secretHash, previousSecretHash, previousSecretExpiresAt } = hashes;
  const current = secretHash != null && verifyClientSecret(secret, secretHash, pepper);
  const previous =
    previousSecretHash != null && verifyClientSecret(secret, previousSecretHash, pepper);
  const previousValid =
    previousSecretExpiresAt != null && previousSecretExpiresAt.getTime() > now.getTime();
  return current || (previous && previousValid);
}
