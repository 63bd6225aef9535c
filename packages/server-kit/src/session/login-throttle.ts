import { hash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { KeyValueStore } from '../kv/key-value-store.ts';

export interface LoginThrottleLimits {
  /** Failed logins of one account from one address: stops guessing from one place. */
  perAccountAndAddress: number;
  /**
   * Failed logins of one account from all addresses: past it, guessing spread over many
   * addresses slows to one try per new address (see LoginThrottle).
   */
  perAccount: number;
  /** Failed logins from one address over all accounts: stops spraying one password. */
  perAddress: number;
  windowMs: number;
  /** How long an address stays known to an account after a successful login from it. */
  knownAddressMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleLimits = {
  perAccountAndAddress: 5,
  perAccount: 50,
  perAddress: 30,
  windowMs: 15 * 60 * 1000,
  knownAddressMs: 30 * 24 * 60 * 60 * 1000,
};

/**
 * Tries an address new to an account gets once the account's own limit is reached: enough
 * for the owner's correct password from a new place, while a guesser needs a fresh address
 * for every further guess.
 */
const TRIES_FROM_A_NEW_ADDRESS_UNDER_ATTACK = 1;

/**
 * An admitted attempt, counted as a failure unless the login reports otherwise: a wrong
 * password or an unknown account needs no call.
 */
export interface LoginAttempt {
  /** The password was right: the attempt is given back and the address becomes known. */
  succeeded(): Promise<void>;
  /** The check could not be made (the database was unreachable): nothing is counted. */
  abandoned(): Promise<void>;
}

export type Admission =
  { admitted: true; attempt: LoginAttempt } | { admitted: false; waitMs: number };

/**
 * Counts failed logins in fixed windows, so that guessing is slow and no lockout is
 * permanent. Only a failure the user made counts: a refused attempt, a success and an
 * attempt whose check could not be made count nothing. An attempt is reserved before the
 * password is checked (and given back unless it fails), so parallel guesses cannot pass a
 * limit together.
 *
 * The account's own limit cannot be used to lock its owner out: addresses the owner logged
 * in from recently are not subject to it, and past it a new address still gets one try, so
 * the owner's correct password works anywhere. A guesser then needs a new address per guess,
 * and each address is also capped over all accounts.
 */
export class LoginThrottle {
  private readonly store: KeyValueStore;
  private readonly limits: LoginThrottleLimits;

  constructor(store: KeyValueStore, limits: LoginThrottleLimits = DEFAULT_LOGIN_THROTTLE) {
    this.store = store;
    this.limits = limits;
  }

  private keys(address: string, email: string) {
    const account = digest(email);
    const bucket = addressBucket(address);
    return {
      accountAndAddress: `login-attempts:account-address:${account}:${bucket}`,
      account: `login-attempts:account:${account}`,
      address: `login-attempts:address:${bucket}`,
      // Hashed together: the store keeps no readable list of where an owner logs in from.
      known: `login-known:${digest(`${account}\n${bucket}`)}`,
    };
  }

  /**
   * Decides whether this attempt may have its password checked and, if so, reserves its
   * place under the limits. Refused attempts are not counted.
   */
  async admit(address: string, email: string): Promise<Admission> {
    const keys = this.keys(address, email);
    const [accountAndAddress, account, fromAddress, known] = (
      await this.store.getMany(keys.accountAndAddress, keys.account, keys.address, keys.known)
    ).map((value) => (value === null ? null : Number(value)));
    const accountUnderAttack = known === null && (account ?? 0) >= this.limits.perAccount;
    const allowed = accountUnderAttack
      ? TRIES_FROM_A_NEW_ADDRESS_UNDER_ATTACK
      : this.limits.perAccountAndAddress;
    const full = [
      ...((accountAndAddress ?? 0) >= allowed ? [keys.accountAndAddress] : []),
      ...((fromAddress ?? 0) >= this.limits.perAddress ? [keys.address] : []),
    ];
    if (full.length > 0) return { admitted: false, waitMs: await this.waitFor(full) };

    const reserved = [keys.accountAndAddress, keys.account, keys.address];
    const counts = await Promise.all(
      reserved.map((key) => this.store.increment(key, this.limits.windowMs)),
    );
    const [pair, , perAddress] = counts;
    if ((pair?.count ?? 0) > allowed || (perAddress?.count ?? 0) > this.limits.perAddress) {
      // Lost a race with parallel attempts: refused, so not counted either.
      await this.giveBack(reserved);
      return {
        admitted: false,
        waitMs: await this.waitFor([keys.accountAndAddress, keys.address]),
      };
    }
    return {
      admitted: true,
      attempt: {
        succeeded: async () => {
          await Promise.all([
            this.store.delete(keys.accountAndAddress),
            this.giveBack([keys.account, keys.address]),
            this.store.set(keys.known, '1', this.limits.knownAddressMs),
          ]);
        },
        abandoned: () => this.giveBack(reserved),
      },
    };
  }

  private async giveBack(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.store.increment(key, this.limits.windowMs, -1)));
  }

  /** Milliseconds until the longest-lived of these counters ends its window. */
  private async waitFor(keys: string[]): Promise<number> {
    const ttls = await Promise.all(keys.map((key) => this.store.ttlMs(key)));
    return Math.max(1, ...ttls.map((ttl) => ttl ?? 0));
  }
}

// Hashed so that the store holds no list of the addresses people tried.
function digest(value: string): string {
  return hash('sha256', value, 'base64url');
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
