import { hash, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@foodshare/server-kit';
import { readRecord, RecordFormats, writeRecord } from '@foodshare/server-kit';

/**
 * The prompt values of OIDC Core 3.1.2.1 this server acts on, as discovery advertises them
 * (`select_account` is not: every person has one account here).
 */
export type Prompt = 'none' | 'login' | 'consent';

/** A validated authorization request: what the client asked for, nothing decided yet. */
export interface AuthorizationRequest {
  clientId: string;
  /** Exactly as sent; equal to one of the client's registered redirect URIs. */
  redirectUri: string;
  state: string | null;
  /** Requested scopes, de-duplicated, every one known and registered for the client. */
  scopes: string[];
  /** S256 challenge, or null (only a confidential client may omit it). */
  codeChallenge: string | null;
  nonce: string | null;
  prompt: Prompt[];
  /** OIDC max_age in seconds, or null. */
  maxAge: number | null;
  /**
   * RFC 9449 10: the thumbprint of the DPoP key the code is bound to. Absent when the client
   * sent no dpop_jkt, and from requests parked by an earlier release.
   */
  dpopJkt?: string;
  /**
   * RFC 8628: the device authorization (`DeviceAuthorizationStore`, by its id) this request
   * approves or denies instead of issuing a code. Its `redirectUri` is then DEVICE_REDIRECT_URI.
   */
  deviceId?: string;
}

/**
 * The `redirectUri` of a device request: no client can register it (a URN is no redirect URI),
 * so the previous release, which knows no `deviceId`, finds the request's redirect URI
 * unregistered and refuses to continue it rather than sending anything to the client.
 */
export const DEVICE_REDIRECT_URI = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * A request parked while the user logs in or decides on consent. `loginSession` names (by hash)
 * the session that logged in for this very request: that login satisfies `prompt=login` and
 * `max_age` however old the request is, so `max_age=0` does not loop back to the login page.
 */
export interface PendingAuthorizationRequest extends AuthorizationRequest {
  id: string;
  loginSession: string | null;
}

/** Long enough to type a forgotten password, short enough that a stale tab expires. */
export const PENDING_REQUEST_TTL_MS = 30 * 60 * 1000;

const ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

function requestKey(id: string): string {
  return `oauth:authorization-request:${id}`;
}

/** Only equality matters; the store never holds a usable session id. */
export function sessionFingerprint(sessionId: string): string {
  return hash('sha256', sessionId, 'base64url');
}

/**
 * Authorization requests waiting for a login or a consent decision, kept server-side under a
 * random id so that the pages carry only that id and nobody can alter the parameters on the way.
 */
export class AuthorizationRequestStore {
  readonly store: KeyValueStore;
  readonly ttlMs: number;

  constructor(store: KeyValueStore, ttlMs = PENDING_REQUEST_TTL_MS) {
    this.store = store;
    this.ttlMs = ttlMs;
  }

  async park(request: AuthorizationRequest): Promise<PendingAuthorizationRequest> {
    const pending: PendingAuthorizationRequest = {
      ...request,
      id: randomBytes(24).toString('base64url'),
      loginSession: null,
    };
    await this.store.set(
      requestKey(pending.id),
      writeRecord(RecordFormats.authorizationRequest, pending),
      this.ttlMs,
    );
    return pending;
  }

  async find(id: string): Promise<PendingAuthorizationRequest | null> {
    if (!ID_PATTERN.test(id)) return null;
    const value = await this.store.get(requestKey(id));
    return value === null
      ? null
      : readRecord<PendingAuthorizationRequest>(RecordFormats.authorizationRequest, value);
  }

  /** Records the login made for this request; keeps the request's remaining lifetime. */
  async recordLogin(id: string, sessionId: string): Promise<PendingAuthorizationRequest | null> {
    if (!ID_PATTERN.test(id)) return null;
    const found = await this.store.getWithTtl(requestKey(id));
    if (!found) return null;
    const pending: PendingAuthorizationRequest = {
      ...readRecord<PendingAuthorizationRequest>(RecordFormats.authorizationRequest, found.value),
      loginSession: sessionFingerprint(sessionId),
    };
    await this.store.set(
      requestKey(id),
      writeRecord(RecordFormats.authorizationRequest, pending),
      Math.max(1, found.ttlMs),
    );
    return pending;
  }

  /** Removes the request and says whether this caller did: a decision is made at most once. */
  async finish(id: string): Promise<boolean> {
    if (!ID_PATTERN.test(id)) return false;
    return (await this.store.take(requestKey(id))) !== null;
  }
}
