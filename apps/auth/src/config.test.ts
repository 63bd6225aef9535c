import { ConfigError } from '@foodshare/server-kit';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const BASE = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/foodshare',
  BASE_URL: 'https://foodshare.example.org',
};
const KEK_HEX = 'a1'.repeat(32);
const PEPPER = 'a-long-enough-server-side-pepper';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('the auth configuration', () => {
  it('refuses production without KEY_ENCRYPTION_KEY and CLIENT_SECRET_PEPPER, naming both', () => {
    expect(problemsOf({ ...BASE, NODE_ENV: 'production' })).toEqual([
      'KEY_ENCRYPTION_KEY: required in production',
      'CLIENT_SECRET_PEPPER: required in production',
    ]);
    expect(() => loadConfig({ ...BASE, NODE_ENV: 'production' })).toThrow(
      /KEY_ENCRYPTION_KEY.*\n.*CLIENT_SECRET_PEPPER/,
    );
  });

  it.each([
    ['KEY_ENCRYPTION_KEY', { CLIENT_SECRET_PEPPER: PEPPER }],
    ['CLIENT_SECRET_PEPPER', { KEY_ENCRYPTION_KEY: KEK_HEX }],
  ])('refuses production without %s alone', (missing, present) => {
    expect(problemsOf({ ...BASE, NODE_ENV: 'production', ...present })).toEqual([
      `${missing}: required in production`,
    ]);
  });

  it('names the bad variables and the production rules together, in one run', () => {
    expect(
      problemsOf({
        ...BASE,
        BASE_URL: 'http://foodshare.example.org',
        NODE_ENV: 'production',
        PORT: 'eighty',
        KEY_ENCRYPTION_KEY: 'short',
      }),
    ).toEqual([
      'PORT: must be an integer from 0 to 65535',
      'KEY_ENCRYPTION_KEY: must be at least 32 characters long',
      'BASE_URL: must be https in production',
      'CLIENT_SECRET_PEPPER: required in production',
    ]);
  });

  it('starts in production with both', () => {
    const config = loadConfig({
      ...BASE,
      NODE_ENV: 'production',
      KEY_ENCRYPTION_KEY: KEK_HEX,
      CLIENT_SECRET_PEPPER: PEPPER,
    });
    expect(config.KEY_ENCRYPTION_KEY).toBe(KEK_HEX);
  });

  it('starts in development without them', () => {
    expect(problemsOf({ ...BASE, NODE_ENV: 'development' })).toEqual([]);
  });

  it.each([
    ['31 bytes of hex', 'a1'.repeat(31)],
    ['a passphrase', 'this is a passphrase, not a key of 32 bytes'],
  ])('refuses a KEY_ENCRYPTION_KEY of %s', (_what, value) => {
    expect(problemsOf({ ...BASE, KEY_ENCRYPTION_KEY: value })).toEqual([
      'KEY_ENCRYPTION_KEY: must be 32 bytes as 64 hex characters or base64',
    ]);
  });

  it('accepts a key reload interval below a second (tests) and refuses zero', () => {
    expect(
      loadConfig({ ...BASE, SIGNING_KEY_REFRESH_SECONDS: '0.2' }).SIGNING_KEY_REFRESH_SECONDS,
    ).toBe(0.2);
    expect(problemsOf({ ...BASE, SIGNING_KEY_REFRESH_SECONDS: '0' })).toHaveLength(1);
  });
});
