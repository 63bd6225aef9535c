import { describe, expect, it } from 'vitest';
import { COMMON_CONFIG_RULES, CommonEnvSchema, redisConnection } from './common-env.ts';
import { ConfigError, loadConfigFrom } from './load-config.ts';

const BASE = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/foodshare' };

const load = (env: Record<string, string>) =>
  loadConfigFrom(CommonEnvSchema, { ...BASE, ...env }, COMMON_CONFIG_RULES);

function problemsOf(env: Record<string, string>): string[] {
  try {
    load(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('the Redis settings', () => {
  it('reach one server at REDIS_URL when no sentinels are named', () => {
    expect(redisConnection(load({ REDIS_URL: 'redis://:secret@redis.internal:6380/2' }))).toEqual({
      url: 'redis://:secret@redis.internal:6380/2',
    });
  });

  it('reach the master the sentinels name, with the URL kept for its password and database', () => {
    const config = load({
      REDIS_URL: 'redis://:data-secret@ignored:1/3',
      REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.2:26380,[::1]:26381',
      REDIS_SENTINEL_MASTER: 'foodshare',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(redisConnection(config)).toEqual({
      url: 'redis://:data-secret@ignored:1/3',
      sentinel: {
        sentinels: [
          { host: 'sentinel-a', port: 26379 },
          { host: '10.0.0.2', port: 26380 },
          { host: '::1', port: 26381 },
        ],
        masterName: 'foodshare',
        password: 'sentinel-secret',
      },
    });
  });

  it('call the master mymaster unless told otherwise', () => {
    expect(redisConnection(load({ REDIS_SENTINELS: 'a:26379' })).sentinel?.masterName).toBe(
      'mymaster',
    );
  });

  it.each([
    ['a host without a port', 'sentinel-a'],
    ['a port out of range', 'sentinel-a:65536'],
    ['port zero', 'sentinel-a:0'],
    ['an empty item', 'sentinel-a:26379,,sentinel-b:26379'],
    ['a URL', 'redis://sentinel-a:26379'],
    ['an IPv6 address without brackets', '::1:26379'],
  ])('refuse REDIS_SENTINELS with %s, naming the variable', (_what, value) => {
    expect(problemsOf({ REDIS_SENTINELS: value })).toEqual([
      'REDIS_SENTINELS: must be host:port pairs separated by commas',
    ]);
  });

  it('refuse a master name with white space', () => {
    expect(problemsOf({ REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_MASTER: 'my master' })).toEqual([
      'REDIS_SENTINEL_MASTER: must match ^\\S+$',
    ]);
  });

  it('refuse a sentinel password without sentinels: it would be silently unused', () => {
    expect(problemsOf({ REDIS_SENTINEL_PASSWORD: 'sentinel-secret' })).toEqual([
      'REDIS_SENTINEL_PASSWORD: is only used with REDIS_SENTINELS',
    ]);
  });
});
