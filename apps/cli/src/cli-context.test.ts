import { DEVELOPMENT_CLIENT_SECRET_PEPPER } from '@foodshare/domain';
import { describe, expect, it } from 'vitest';
import { clientSecretPepper, requireDatabaseUrl } from './cli-context.ts';

describe('the environment of the CLI', () => {
  it('requires DATABASE_URL and says how to set it', () => {
    expect(() => requireDatabaseUrl({})).toThrow(/DATABASE_URL is not set/);
    expect(() => requireDatabaseUrl({ DATABASE_URL: ' ' })).toThrow(/DATABASE_URL is not set/);
    expect(requireDatabaseUrl({ DATABASE_URL: 'postgresql://db/x' })).toBe('postgresql://db/x');
  });

  it('uses CLIENT_SECRET_PEPPER, falling back to the development pepper outside production', () => {
    expect(clientSecretPepper({ CLIENT_SECRET_PEPPER: 'deployment pepper' })).toBe(
      'deployment pepper',
    );
    expect(clientSecretPepper({})).toBe(DEVELOPMENT_CLIENT_SECRET_PEPPER);
    expect(clientSecretPepper({ NODE_ENV: 'test' })).toBe(DEVELOPMENT_CLIENT_SECRET_PEPPER);
    expect(() => clientSecretPepper({ NODE_ENV: 'production' })).toThrow(
      /CLIENT_SECRET_PEPPER is not set/,
    );
    expect(clientSecretPepper({ NODE_ENV: 'production', CLIENT_SECRET_PEPPER: 'p' })).toBe('p');
  });
});
