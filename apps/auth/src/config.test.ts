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

  it('names the platform foodsharing unless PLATFORM_NAME says otherwise', () => {
    expect(loadConfig(BASE).PLATFORM_NAME).toBe('foodsharing');
    expect(loadConfig({ ...BASE, PLATFORM_NAME: 'Lebensmittelretten' }).PLATFORM_NAME).toBe(
      'Lebensmittelretten',
    );
    expect(problemsOf({ ...BASE, PLATFORM_NAME: 'x'.repeat(61) })).toHaveLength(1);
  });

  it('takes a PASSWORD_RESET_URL that is an absolute https URL, http only outside production', () => {
    expect(loadConfig(BASE).PASSWORD_RESET_URL).toBeUndefined();
    const reset = 'https://foodshare.example.org/passwort-vergessen';
    expect(loadConfig({ ...BASE, PASSWORD_RESET_URL: reset }).PASSWORD_RESET_URL).toBe(reset);
    expect(problemsOf({ ...BASE, PASSWORD_RESET_URL: 'http://localhost:8080/reset' })).toEqual([]);
    const production = {
      ...BASE,
      NODE_ENV: 'production',
      KEY_ENCRYPTION_KEY: KEK_HEX,
      CLIENT_SECRET_PEPPER: PEPPER,
    };
    for (const bad of [
      'javascript:alert(1)',
      '/reset',
      'https://x.example/"><b>',
      'http://x.example/',
    ]) {
      expect(problemsOf({ ...production, PASSWORD_RESET_URL: bad }), bad).toEqual([
        'PASSWORD_RESET_URL: must be an absolute https URL',
      ]);
    }
    expect(problemsOf({ ...BASE, PASSWORD_RESET_URL: 'javascript:alert(1)' })).toEqual([
      'PASSWORD_RESET_URL: must be an absolute https (or http) URL',
    ]);
  });
});
