import { hash, randomBytes, randomInt } from 'node:crypto';
import type { KeyValueStore } from '@foodshare/server-kit';
import { readRecord, RecordFormats, writeRecord } from '@foodshare/server-kit';
import {
  clientGrantCutoffKey,
  issuedBeforeCutoff,
  parseCutoff,
} from '@foodshare/server-kit/oauth-grants';

/** RFC 8628 6.1: consonants only, no vowels (no words) and no look-alikes (no 0/O, 1/I, 5/S). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
const USER_CODE_PATTERN = new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`);

/** RFC 8628 3.5: what a too-fast poll adds to the interval, in seconds. */
export const SLOW_DOWN_SECONDS = 5;

/** What the user decided on the verification and consent pages. */
export interface DeviceApproval {
  userId: number;
  /** Seconds since the epoch: the login of the session that approved (OIDC auth_time). */
  authTime: number;
  /** The `sid` of that session (docs/oauth.md §4.4). */
  sid: string;
  scopes: string[];
  /** Milliseconds since the epoch: a revocation of the app after it voids the approval. */
  approvedAt: number;
}

/** A device authorization request (RFC 8628 3.1), from its issue to its one redemption. */
export interface DeviceAuthorization {
  clientId: string;
  /** Requested scopes, each registered for the client. */
  scopes: string[];
  /** Milliseconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  /** The polling interval the client was given, in seconds (slow_down adds to it). */
  interval: number;
  approval?: DeviceApproval;
  denied?: true;
}

/** What a poll of the token endpoint finds (RFC 8628 3.5). */
export type DevicePoll =
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'slow_down' }
  | { kind: 'pending' }
  | { kind: 'denied' }
  | { kind: 'approved'; authorization: DeviceAuthorization & { approval: DeviceApproval } };

const hashOf = (secret: string) => hash('sha256', secret, 'base64url');

// Keys name the device code by its hash (the `deviceId`): a Redis dump names no usable code.
const deviceKey = (deviceId: string) => `oauth:device:${deviceId}`;
const userCodeKey = (userCode: string) => `oauth:device-user-code:${hashOf(userCode)}`;
const lastPollKey = (deviceId: string) => `oauth:device-poll:${deviceId}`;
const slowDownsKey = (deviceId: string) => `oauth:device-slow-downs:${deviceId}`;

/** XXXX-XXXX, as shown and as in verification_uri_complete (RFC 8628 6.1). */
export function formatUserCode(userCode: string): string {
  return `${userCode.slice(0, 4)}-${userCode.slice(4)}`;
}

/** The user code as typed: case, dashes and white space do not matter; null if it cannot be one. */
export function normaliseUserCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  return USER_CODE_PATTERN.test(code) ? code : null;
}

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1)
    code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/**
 * Device authorizations (RFC 8628, docs/oauth.md §12) in the key-value store: the record under
 * the device code's hash, a pointer from the user code, the time of the last poll and the count
 * of slow_downs. The record outlives its `expiresAt` by one lifetime, so that a late poll is told
 * `expired_token` rather than `invalid_grant`.
 */
export class DeviceAuthorizationStore {
  readonly store: KeyValueStore;
  readonly lifetimeMs: number;
  readonly intervalSeconds: number;

  constructor(store: KeyValueStore, lifetimeMs: number, intervalSeconds: number) {
    this.store = store;
    this.lifetimeMs = lifetimeMs;
    this.intervalSeconds = intervalSeconds;
  }

  /** A fresh device code (256 bits) and user code for the client's request. */
  async issue(
    request: { clientId: string; scopes: string[] },
    now = Date.now(),
  ): Promise<{ deviceCode: string; userCode: string }> {
    const deviceCode = randomBytes(32).toString('base64url');
    const deviceId = hashOf(deviceCode);
    const authorization: DeviceAuthorization = {
      ...request,
      issuedAt: now,
      expiresAt: now + this.lifetimeMs,
      interval: this.intervalSeconds,
    };
    await this.store.set(
      deviceKey(deviceId),
      writeRecord(RecordFormats.deviceAuthorization, authorization),
      2 * this.lifetimeMs,
    );
    // 20^8 codes: a collision among the live ones is rare, and a new code is drawn then.
    for (;;) {
      const userCode = newUserCode();
      if (await this.store.setIfAbsent(userCodeKey(userCode), deviceId, this.lifetimeMs)) {
        return { deviceCode, userCode };
      }
    }
  }

  /**
   * The authorization a typed user code names, used up by this call (single use: of concurrent
   * callers one gets it); null when unknown, used, expired or decided.
   */
  async takeUserCode(
    userCode: string,
  ): Promise<{ deviceId: string; authorization: DeviceAuthorization } | null> {
    const deviceId = await this.store.take(userCodeKey(userCode));
    if (deviceId === null) return null;
    const raw = await this.store.get(deviceKey(deviceId));
    if (raw === null) return null;
    const authorization = readRecord<DeviceAuthorization>(RecordFormats.deviceAuthorization, raw);
    const open = !authorization.approval && !authorization.denied;
    return open && Date.now() < authorization.expiresAt ? { deviceId, authorization } : null;
  }

  /** Records the user's decision, once; false when the authorization is gone or decided. */
  async decide(deviceId: string, decision: DeviceApproval | 'denied'): Promise<boolean> {
    const found = await this.store.getWithTtl(deviceKey(deviceId));
    if (!found) return false;
    const authorization = readRecord<DeviceAuthorization>(
      RecordFormats.deviceAuthorization,
      found.value,
    );
    if (authorization.approval || authorization.denied) return false;
    if (Date.now() >= authorization.expiresAt) return false;
    const decided: DeviceAuthorization =
      decision === 'denied'
        ? { ...authorization, denied: true }
        : { ...authorization, approval: decision };
    return this.store.setIfPresent(
      deviceKey(deviceId),
      writeRecord(RecordFormats.deviceAuthorization, decided),
      Math.max(1, found.ttlMs),
    );
  }

  /**
   * A poll of the client at the token endpoint. A poll sooner than the interval after the one
   * before is told slow_down and adds 5 seconds to the interval (RFC 8628 3.5): the last poll is
   * a key that lives for the interval, set only when absent, so of two concurrent polls one is
   * too fast. Each slow_down is counted, and the interval is the given one plus 5 s per count.
   */
  async poll(deviceCode: string, clientId: string, now = Date.now()): Promise<DevicePoll> {
    const deviceId = hashOf(deviceCode);
    const [raw, slowDowns, cutoff] = await this.store.getMany(
      deviceKey(deviceId),
      slowDownsKey(deviceId),
      clientGrantCutoffKey(clientId),
    );
    if (raw == null) return { kind: 'unknown' };
    const authorization = readRecord<DeviceAuthorization>(RecordFormats.deviceAuthorization, raw);
    // Another client's device code is refused like an unknown one, and left alone.
    if (authorization.clientId !== clientId) return { kind: 'unknown' };
    // A device code issued before the client's grants were ended (the client deactivated or
    // deleted) is void, as a code of the code flow is.
    if (issuedBeforeCutoff(authorization.issuedAt, parseCutoff(cutoff ?? null))) {
      return { kind: 'unknown' };
    }
    if (now >= authorization.expiresAt) return { kind: 'expired' };
    const interval = authorization.interval + SLOW_DOWN_SECONDS * Number(slowDowns ?? 0);
    if (!(await this.store.setIfAbsent(lastPollKey(deviceId), String(now), interval * 1000))) {
      // The device waits the grown interval from this answer on: the too-fast poll counts as
      // the last one.
      const grown = (interval + SLOW_DOWN_SECONDS) * 1000;
      await Promise.all([
        this.store.increment(slowDownsKey(deviceId), authorization.expiresAt - now),
        this.store.set(lastPollKey(deviceId), String(now), grown),
      ]);
      return { kind: 'slow_down' };
    }
    if (authorization.denied) return { kind: 'denied' };
    if (!authorization.approval) return { kind: 'pending' };
    return {
      kind: 'approved',
      authorization: { ...authorization, approval: authorization.approval },
    };
  }

  /** Ends the authorization at its redemption: of concurrent callers exactly one gets true. */
  async redeem(deviceCode: string): Promise<boolean> {
    return (await this.store.take(deviceKey(hashOf(deviceCode)))) !== null;
  }
}
