import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVELOPMENT_CLIENT_SECRET_PEPPER } from '@foodshare/domain';
import { describe, expect, it } from './test-support/fixtures.ts';
import {
  chooseDatabase,
  clientSecretPepper,
  databaseNotice,
  withOrm,
  type CliEnvironment,
} from './cli-context.ts';

/** A checkout root, with the data directory `pnpm start` leaves behind or without it. */
function checkout(withEmbeddedDatabase: boolean): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cli-checkout-'));
  if (withEmbeddedDatabase) {
    mkdirSync(path.join(root, '.data', 'postgres'), { recursive: true });
    writeFileSync(path.join(root, '.data', 'postgres', 'PG_VERSION'), '18\n');
  }
  return root;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the database of the CLI', () => {
  it('takes DATABASE_URL when it is set, whatever the checkout holds', () => {
    const choice = chooseDatabase({ DATABASE_URL: ' postgresql://db/x ' }, checkout(true));
    expect(choice).toEqual({ url: 'postgresql://db/x', embedded: null });
    expect(databaseNotice(choice)).toBeNull();
  });

  it('takes the embedded database of `pnpm start` when DATABASE_URL is unset', () => {
    const root = checkout(true);
    const choice = chooseDatabase({ DATABASE_URL: ' ' }, root);
    expect(choice.url).toBe('postgres://postgres:embedded@127.0.0.1:54320/foodshare');
    expect(choice.embedded?.dataDir).toBe(path.join(root, '.data', 'postgres'));
    expect(databaseNotice(choice)).toBe(
      'DATABASE_URL is not set: using the embedded PostgreSQL of `pnpm start` ' +
        `(postgres@127.0.0.1:54320/foodshare, data in ${path.join(root, '.data', 'postgres')}).`,
    );
  });

  it('reaches it on EMBEDDED_POSTGRES_PORT, refusing a port that is not one', () => {
    const root = checkout(true);
    expect(chooseDatabase({ EMBEDDED_POSTGRES_PORT: '54999' }, root).url).toBe(
      'postgres://postgres:embedded@127.0.0.1:54999/foodshare',
    );
    for (const port of ['abc', '0', '65536', '-1']) {
      expect(() => chooseDatabase({ EMBEDDED_POSTGRES_PORT: port }, root)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
  });

  it.for<[string, CliEnvironment, boolean]>([
    ['a checkout without an embedded database', {}, false],
    ['production, even beside an embedded database', { NODE_ENV: 'production' }, true],
  ])('requires DATABASE_URL in %s, in one line', ([_where, env, embedded]) => {
    const refusal = (() => {
      try {
        chooseDatabase(env, checkout(embedded));
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error('expected a refusal');
    })();
    expect(refusal.code).toBe('MISSING_DATABASE_URL');
    expect(refusal.message).toMatch(/^DATABASE_URL is not set .*pnpm start/);
    expect(refusal.message).not.toContain('\n');
  });

  it('says in one line that the embedded database does not answer', async () => {
    const env = { EMBEDDED_POSTGRES_PORT: String(await closedPort()) };
    const root = checkout(true);
    const choice = chooseDatabase(env, root);
    const attempt = withOrm(env, () => Promise.resolve(1), root);
    await expect(attempt).rejects.toMatchObject({
      code: 'EMBEDDED_DATABASE_NOT_RUNNING',
      message: expect.stringMatching(
        new RegExp(
          `^The embedded PostgreSQL .* on 127\\.0\\.0\\.1:${choice.embedded!.port} \\(.*\\): start it with`,
        ),
      ) as string,
    });
  });
});

describe('the environment of the CLI', () => {
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
