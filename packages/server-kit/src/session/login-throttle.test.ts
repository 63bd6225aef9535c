import { describe, expect, it } from 'vitest';
import { MemoryKeyValueStore } from '../kv/memory-store.ts';
import { addressBucket, LoginThrottle } from './login-throttle.ts';

const limits = { perAccountAndAddress: 3, perAccount: 10, perAddress: 6, windowMs: 60_000 };

describe('LoginThrottle', () => {
  it('lets at most the limit through when guesses arrive in parallel', async () => {
    const throttle = new LoginThrottle(new MemoryKeyValueStore(), limits);
    const waits = await Promise.all(
      Array.from({ length: 50 }, () => throttle.admit('10.0.0.1', 'a@example.org')),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(3);
    expect(Math.min(...waits.filter((wait) => wait > 0))).toBeGreaterThan(0);
  });

  it('does not lock the owner out because of guesses from elsewhere', async () => {
    const throttle = new LoginThrottle(new MemoryKeyValueStore(), limits);
    for (let i = 0; i < 4; i++) await throttle.admit('10.0.0.66', 'owner@example.org');
    expect(await throttle.admit('10.0.0.66', 'owner@example.org')).toBeGreaterThan(0);
    expect(await throttle.admit('10.0.0.7', 'owner@example.org')).toBe(0);
  });

  it('caps an account over all addresses', async () => {
    const throttle = new LoginThrottle(new MemoryKeyValueStore(), limits);
    for (let i = 0; i < 10; i++) {
      expect(await throttle.admit(`10.0.1.${i}`, 'target@example.org')).toBe(0);
    }
    expect(await throttle.admit('10.0.1.99', 'target@example.org')).toBeGreaterThan(0);
  });

  it('caps one address over all accounts', async () => {
    const throttle = new LoginThrottle(new MemoryKeyValueStore(), limits);
    for (let i = 0; i < 6; i++) {
      expect(await throttle.admit('10.0.2.1', `user${i}@example.org`)).toBe(0);
    }
    expect(await throttle.admit('10.0.2.1', 'another@example.org')).toBeGreaterThan(0);
  });

  it('gives successful logins their attempts back', async () => {
    const throttle = new LoginThrottle(new MemoryKeyValueStore(), limits);
    for (let i = 0; i < 20; i++) {
      expect(await throttle.admit('10.0.3.1', 'regular@example.org')).toBe(0);
      await throttle.succeeded('10.0.3.1', 'regular@example.org');
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
