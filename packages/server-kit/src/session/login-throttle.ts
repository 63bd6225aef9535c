import { createHash } from 'node:crypto';
import type { KeyValueStore } from '../kv/key-value-store.ts';

export interface LoginThrottleLimits {
  /** Failed attempts allowed per account within the window. */
  perAccount: number;
  /** Failed attempts allowed per client IP within the window (covers spraying many accounts). */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleLimits = {
  perAccount: 5,
  perIp: 30,
  windowMs: 15 * 60 * 1000,
};

/**
 * Counts failed logins in fixed windows. Windows expire, so there is no permanent
 * lockout that an attacker could use to shut a user out.
 */
export class LoginThrottle {
  private readonly store: KeyValueStore;
  private readonly limits: LoginThrottleLimits;

  constructor(store: KeyValueStore, limits: LoginThrottleLimits = DEFAULT_LOGIN_THROTTLE) {
    this.store = store;
    this.limits = limits;
  }

  /** Milliseconds to wait before the next attempt, or 0 when an attempt is allowed. */
  async retryAfterMs(ip: string, email: string): Promise<number> {
    const [ipCount, accountCount] = await Promise.all([
      this.store.get(ipKey(ip)),
      this.store.get(accountKey(email)),
    ]);
    const waits: Promise<number | null>[] = [];
    if (Number(ipCount ?? 0) >= this.limits.perIp) waits.push(this.store.ttlMs(ipKey(ip)));
    if (Number(accountCount ?? 0) >= this.limits.perAccount) {
      waits.push(this.store.ttlMs(accountKey(email)));
    }
    const remaining = await Promise.all(waits);
    return Math.max(0, ...remaining.map((ms) => ms ?? 0));
  }

  async recordFailure(ip: string, email: string): Promise<void> {
    await Promise.all([
      this.store.increment(ipKey(ip), this.limits.windowMs),
      this.store.increment(accountKey(email), this.limits.windowMs),
    ]);
  }

  /** A successful login clears the account's count; the IP's stays (it may spray others). */
  async recordSuccess(email: string): Promise<void> {
    await this.store.delete(accountKey(email));
  }
}

function ipKey(ip: string): string {
  return `login-failures:ip:${ip}`;
}

// Hashed so that the store holds no list of email addresses people tried.
function accountKey(email: string): string {
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
  return `login-failures:account:${digest}`;
}
