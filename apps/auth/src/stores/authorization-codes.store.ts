import { createHash, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@foodshare/server-kit';

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
}

/** Codes are stored under a hash: a leaked Redis dump names no redeemable code. */
export function codeKey(code: string): string {
  return `oauth:code:${createHash('sha256').update(code).digest('base64url')}`;
}

export class AuthorizationCodeStore {
  readonly store: KeyValueStore;
  readonly ttlMs: number;

  constructor(store: KeyValueStore, ttlMs: number) {
    this.store = store;
    this.ttlMs = ttlMs;
  }

  /** A fresh 256-bit code for the grant, valid for the code lifetime (SPEC: 10 minutes). */
  async issue(grant: Omit<AuthorizationCodeGrant, 'issuedAt'>): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const record: AuthorizationCodeGrant = { ...grant, issuedAt: Date.now() };
    await this.store.set(codeKey(code), JSON.stringify(record), this.ttlMs);
    return code;
  }
}
