import { describe, expect, it } from 'vitest';
import { MemoryKeyValueStore } from '../kv/memory-store.ts';
import { type Admission, addressBucket, LoginThrottle } from './login-throttle.ts';

const limits = {
  perAccountAndAddress: 3,
  perAccount: 10,
  perAddress: 6,
  windowMs: 60_000,
  knownAddressMs: 3_600_000,
};

function newThrottle() {
  return new LoginThrottle(new MemoryKeyValueStore(), limits);
}

/** An attempt that ends as a wrong password (it stays counted). */
async function fail(throttle: LoginThrottle, address: string, email: string) {
  return (await throttle.admit(address, email)).admitted;
}

async function succeed(throttle: LoginThrottle, address: string, email: string) {
  const admission = await throttle.admit(address, email);
  if (admission.admitted) await admission.attempt.succeeded();
  return admission.admitted;
}

function waits(admissions: Admission[]) {
  return admissions.flatMap((admission) => (admission.admitted ? [] : [admission.waitMs]));
}

describe('LoginThrottle', () => {
  it('lets at most the limit through when guesses arrive in parallel', async () => {
    const throttle = newThrottle();
    const admissions = await Promise.all(
      Array.from({ length: 50 }, () => throttle.admit('10.0.0.1', 'a@example.org')),
    );
    expect(admissions.filter((admission) => admission.admitted)).toHaveLength(3);
    expect(Math.min(...waits(admissions))).toBeGreaterThan(0);
  });

  it('counts no refused attempt: guessing past the limit does not lengthen anything', async () => {
    const store = new MemoryKeyValueStore();
    const throttle = new LoginThrottle(store, limits);
    for (let i = 0; i < 40; i++) await fail(throttle, '10.0.0.2', 'owner@example.org');
    // Three failures counted for the account, not forty: the account's limit is far away.
    for (let i = 0; i < 2; i++) {
      expect(await fail(throttle, `10.0.9.${i}`, 'owner@example.org')).toBe(true);
    }
  });

  it('does not lock the owner out because of guesses from elsewhere', async () => {
    const throttle = newThrottle();
    for (let i = 0; i < 4; i++) await fail(throttle, '10.0.0.66', 'owner@example.org');
    expect(await fail(throttle, '10.0.0.66', 'owner@example.org')).toBe(false);
    expect(await succeed(throttle, '10.0.0.7', 'owner@example.org')).toBe(true);
  });

  it('counts nothing for an attempt whose check could not be made', async () => {
    const throttle = newThrottle();
    for (let i = 0; i < 20; i++) {
      const admission = await throttle.admit('10.0.0.8', 'owner@example.org');
      expect(admission.admitted).toBe(true);
      if (admission.admitted) await admission.attempt.abandoned();
    }
    expect(await succeed(throttle, '10.0.0.8', 'owner@example.org')).toBe(true);
  });

  it('past the account limit, a new address gets one try; a known one keeps its own limit', async () => {
    const throttle = newThrottle();
    const owner = 'target@example.org';
    expect(await succeed(throttle, '10.0.1.200', owner)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await fail(throttle, `10.0.1.${i}`, owner)).toBe(true);

    // A new address: one check (the owner's password from a new place), then refused.
    expect(await fail(throttle, '10.0.1.99', owner)).toBe(true);
    expect(await fail(throttle, '10.0.1.99', owner)).toBe(false);
    expect(await succeed(throttle, '10.0.1.98', owner)).toBe(true);
    // Addresses with a failure already get no further try.
    expect(await fail(throttle, '10.0.1.1', owner)).toBe(false);
    // The owner's known address is not held to the account's limit.
    expect(await fail(throttle, '10.0.1.200', owner)).toBe(true);
    expect(await fail(throttle, '10.0.1.200', owner)).toBe(true);
    expect(await succeed(throttle, '10.0.1.200', owner)).toBe(true);
  });

  it('caps one address over all accounts', async () => {
    const throttle = newThrottle();
    for (let i = 0; i < 6; i++) {
      expect(await fail(throttle, '10.0.2.1', `user${i}@example.org`)).toBe(true);
    }
    expect(await fail(throttle, '10.0.2.1', 'another@example.org')).toBe(false);
  });

  it('gives successful logins their attempts back', async () => {
    const throttle = newThrottle();
    for (let i = 0; i < 20; i++) {
      expect(await succeed(throttle, '10.0.3.1', 'regular@example.org')).toBe(true);
    }
  });
});

describe('addressBucket', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });
});
