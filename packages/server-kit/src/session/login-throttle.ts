import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { KeyValueStore } from '../kv/key-value-store.ts';

export interface LoginThrottleLimits {
  /** Failed logins of one account from one address: stops guessing from one place. */
  perAccountAndAddress: number;
  /** Failed logins of one account from all addresses: stops guessing spread over many. */
  perAccount: number;
  /** Failed logins from one address over all accounts: stops spraying one password. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleLimits = {
  perAccountAndAddress: 5,
  perAccount: 50,
  perAddress: 30,
  windowMs: 15 * 60 * 1000,
};

/**
 * Counts login attempts in fixed windows. An attempt is counted before the password is
 * checked, so a burst of parallel guesses cannot all pass the check; a success gives its
 * count back. The tight limit is per account and address, so a stranger's wrong guesses
 * do not lock the owner out, and windows expire, so no lockout is permanent.
 */
export class LoginThrottle {
  private readonly store: KeyValueStore;
  private readonly limits: LoginThrottleLimits;

  constructor(store: KeyValueStore, limits: LoginThrottleLimits = DEFAULT_LOGIN_THROTTLE) {
    this.store = store;
    this.limits = limits;
  }

  private keys(address: string, email: string) {
    const account = accountDigest(email);
    const bucket = addressBucket(address);
    return {
      accountAndAddress: `login-attempts:account-address:${account}:${bucket}`,
      account: `login-attempts:account:${account}`,
      address: `login-attempts:address:${bucket}`,
    };
  }

  /**
   * Counts this attempt. Returns 0 when it may go ahead, else the milliseconds until the
   * fullest counter's window ends (the attempt must then be refused).
   */
  async admit(address: string, email: string): Promise<number> {
    const keys = this.keys(address, email);
    const counters: [string, number][] = [
      [keys.accountAndAddress, this.limits.perAccountAndAddress],
      [keys.account, this.limits.perAccount],
      [keys.address, this.limits.perAddress],
    ];
    const waits = await Promise.all(
      counters.map(async ([key, limit]) => {
        const { count, ttlMs } = await this.store.increment(key, this.limits.windowMs);
        return count > limit ? Math.max(1, ttlMs) : 0;
      }),
    );
    return Math.max(...waits);
  }

  /** A successful login clears its account-and-address count and gives back its attempt. */
  async succeeded(address: string, email: string): Promise<void> {
    const keys = this.keys(address, email);
    await Promise.all([
      this.store.delete(keys.accountAndAddress),
      this.store.increment(keys.account, this.limits.windowMs, -1),
      this.store.increment(keys.address, this.limits.windowMs, -1),
    ]);
  }
}

// Hashed so that the store holds no list of the addresses people tried.
function accountDigest(email: string): string {
  return createHash('sha256').update(email).digest('base64url');
}

/**
 * The unit one client controls: an IPv4 address, or an IPv6 /64 (a single host is
 * usually given a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = address.includes('::')
    ? [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
