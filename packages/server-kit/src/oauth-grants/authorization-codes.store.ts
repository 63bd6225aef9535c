import { hash, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '../kv/index.ts';
import {
  clientGrantCutoffKey,
  issuedBeforeCutoff,
  parseCutoff,
} from './client-grant-cutoffs.store.ts';
import { readRecord, RecordFormats, writeRecord } from '../kv/index.ts';

/** What an authorization code stands for: decided at /oauth/authorize, redeemed at /oauth/token. */
export interface AuthorizationCodeGrant {
  clientId: string;
  userId: number;
  /** Exactly as sent to /oauth/authorize; the token request must repeat it byte for byte. */
  redirectUri: string;
  /** Granted scopes (a subset of the request and of the client's registration). */
  scopes: string[];
  /** S256 challenge, when one was sent (required for public clients). */
  codeChallenge: string | null;
  nonce: string | null;
  /** When the user last entered their password, in seconds since the epoch (OIDC auth_time). */
  authTime: number;
  /** When the code was issued, in milliseconds since the epoch. */
  issuedAt: number;
  /**
   * The login session the code was issued in (`sessionSid`, docs/oauth.md §4.4). Absent from
   * codes issued before it was kept: their tokens carry no sid.
   */
  sid?: string;
  /**
   * RFC 9449 10: the thumbprint of the DPoP key whose proof must come with the code. Absent when
   * the authorization request named none.
   */
  dpopJkt?: string;
}

/** What a redeemed code produced: named before the tokens exist, so a reuse can revoke them. */
export interface CodeRedemption {
  familyId: string;
  accessTokenJti: string;
  /** Milliseconds since the epoch. */
  accessTokenExpiresAt: number;
}

const hashOf = (code: string) => hash('sha256', code, 'base64url');

// The keys of a code by its hash, for a caller that hashed it once for both.
const codeKeyOf = (hashed: string) => `oauth:code:${hashed}`;
const redemptionKeyOf = (hashed: string) => `oauth:code-redeemed:${hashed}`;

/** Codes are stored under a hash: a leaked Redis dump names no redeemable code. */
export function codeKey(code: string): string {
  return codeKeyOf(hashOf(code));
}

function redemptionKey(code: string): string {
  return redemptionKeyOf(hashOf(code));
}

/** Codes of the user for the client issued up to the time it holds (ms) are void. */
function voidBeforeKey(userId: number, clientId: string): string {
  return `oauth:codes-void-before:${userId}:${clientId}`;
}

/** Codes of the user for any client issued up to the time it holds (ms) are void. */
function userVoidBeforeKey(userId: number): string {
  return `oauth:codes-void-before:${userId}`;
}

export class AuthorizationCodeStore {
  readonly store: KeyValueStore;
  readonly ttlMs: number;

  constructor(store: KeyValueStore, ttlMs: number) {
    this.store = store;
    this.ttlMs = ttlMs;
  }

  /**
   * A fresh 256-bit code for the grant, valid for the code lifetime (docs/spec.md §8: 10 minutes).
   */
  async issue(grant: Omit<AuthorizationCodeGrant, 'issuedAt'>): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const record: AuthorizationCodeGrant = { ...grant, issuedAt: Date.now() };
    await this.store.set(
      codeKey(code),
      writeRecord(RecordFormats.authorizationCode, record),
      this.ttlMs,
    );
    return code;
  }

  /**
   * The grant of an unredeemed code presented by `clientId`, or null (unknown, redeemed or past
   * its key's lifetime, or issued before the client's grants were ended: ClientGrantCutoffs).
   * One round trip: the code, its redemption marker and the cutoff of the client presenting it.
   * A code issued to another client is returned as it is, for the caller to refuse.
   */
  async find(code: string, clientId: string): Promise<AuthorizationCodeGrant | null> {
    const hashed = hashOf(code);
    const [raw, redeemed, cutoff] = await this.store.getMany(
      codeKeyOf(hashed),
      redemptionKeyOf(hashed),
      clientGrantCutoffKey(clientId),
    );
    if (raw == null || redeemed != null) return null;
    const grant = readRecord<AuthorizationCodeGrant>(RecordFormats.authorizationCode, raw);
    if (grant.clientId !== clientId) return grant;
    return issuedBeforeCutoff(grant.issuedAt, parseCutoff(cutoff ?? null)) ? null : grant;
  }

  /**
   * docs/spec.md §8: a code is good for 10 minutes from its issue, whatever the store still holds.
   */
  isExpired(grant: AuthorizationCodeGrant, now = Date.now()): boolean {
    return now - grant.issuedAt >= this.ttlMs;
  }

  /**
   * Marks the code redeemed, atomically: of concurrent callers exactly one gets true. The marker
   * (what the redemption produced) outlives the code by a code lifetime, so that a second use
   * finds the tokens to revoke (RFC 6749 4.1.2). The marker alone ends the code (`find` reads it):
   * the code's own key runs out on its own, which spares every exchange a command. A marker
   * Redis refused (out of memory) leaves the code for the client's retry.
   */
  redeem(code: string, redemption: CodeRedemption): Promise<boolean> {
    return this.store.setIfAbsent(
      redemptionKey(code),
      writeRecord(RecordFormats.codeRedemption, redemption),
      this.ttlMs,
    );
  }

  /**
   * Voids every code of the user for the client issued up to `upTo` (ms; now unless given),
   * redeemed or not: the user revoked the app or signed out. Lives a code lifetime, after which
   * those codes have expired anyway. A later mark already set stands: a sign-out handled late
   * never gives back the codes a later revocation voided.
   */
  async voidCodesOf(userId: number, clientId: string, upTo = Date.now()): Promise<void> {
    await this.store.setIfHigher(voidBeforeKey(userId, clientId), upTo, this.ttlMs);
  }

  /**
   * Voids every code of the user, for every client, issued up to now: their password was reset
   * (a process without the code lifetime may give a longer `lifetimeMs`).
   */
  async voidAllCodesOf(userId: number, lifetimeMs = this.ttlMs): Promise<void> {
    await this.store.setIfHigher(userVoidBeforeKey(userId), Date.now(), lifetimeMs);
  }

  /**
   * Whether the user revoked the app (`voidCodesOf`), or ended every grant (`voidAllCodesOf`),
   * after this code was issued (or a device approved, RFC 8628). One round trip.
   */
  async wasVoided(
    grant: Pick<AuthorizationCodeGrant, 'userId' | 'clientId' | 'issuedAt'>,
  ): Promise<boolean> {
    const marks = await this.store.getMany(
      voidBeforeKey(grant.userId, grant.clientId),
      userVoidBeforeKey(grant.userId),
    );
    return marks.some((mark) => issuedBeforeCutoff(grant.issuedAt, parseCutoff(mark ?? null)));
  }

  /** What an earlier redemption of this code produced, while its marker lives. */
  async findRedemption(code: string): Promise<CodeRedemption | null> {
    const raw = await this.store.get(redemptionKey(code));
    return raw === null ? null : readRecord<CodeRedemption>(RecordFormats.codeRedemption, raw);
  }
}
