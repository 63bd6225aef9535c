import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  decryptPrivateJwk,
  defaultDevelopmentKeyFile,
  developmentKeyEncryptionKey,
  ensureSigningKey,
  KeyEncryptionError,
  SigningKeyEntity,
} from '@foodshare/domain';
import { InvalidArgumentError } from 'commander';
import { CliError, keyEncryptionKey } from '../cli-context.ts';
import { describe, expect, it, test, type TestOrm } from '../test-support/fixtures.ts';
import { listKeysCommand, parseDuration, rotateKeysCommand } from './keys.command.ts';

const main = fileURLToPath(new URL('../main.ts', import.meta.url));
const kek = new Uint8Array(randomBytes(32));
const t0 = new Date('2026-11-22T10:00:00.000Z');
const HOUR = 3_600_000;

test.beforeEach(async ({ db }) => {
  await db.em().nativeDelete(SigningKeyEntity, {});
});

function cli(db: TestOrm, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=development', main, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('durations', () => {
  it.each([
    ['0s', 0],
    ['500ms', 500],
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', HOUR],
    ['2d', 48 * HOUR],
  ])('reads %s', (value, ms) => {
    expect(parseDuration(value)).toBe(ms);
  });

  it.each(['', '1', '-1h', '1.5h', '1w', 'soon'])('refuses %j', (value) => {
    expect(() => parseDuration(value)).toThrow(InvalidArgumentError);
  });
});

describe('the key-encryption key', () => {
  it('falls back to the checkout’s development key outside production only, with a warning', () => {
    const fallback = keyEncryptionKey({});
    expect(fallback.key).toEqual(developmentKeyEncryptionKey().key);
    expect(fallback.warning).toContain(defaultDevelopmentKeyFile());
    expect(() => keyEncryptionKey({ NODE_ENV: 'production' })).toThrow(
      expect.objectContaining({ code: 'MISSING_KEY_ENCRYPTION_KEY' }) as Error,
    );
    expect(
      keyEncryptionKey({ NODE_ENV: 'production', KEY_ENCRYPTION_KEY: 'ab'.repeat(32) }),
    ).toEqual({ key: new Uint8Array(32).fill(0xab), warning: null });
    expect(() => keyEncryptionKey({ KEY_ENCRYPTION_KEY: 'too short' })).toThrow(CliError);
  });
});

describe('keys rotate', () => {
  it('publishes a next key that signs after the delay and retires the current one then', async ({
    db,
  }) => {
    const { kid: current } = await ensureSigningKey(db.em(), kek, { now: t0 });
    const result = await rotateKeysCommand(db.em(), {
      kek,
      activateAfterMs: HOUR,
      retireAfterMs: 25 * HOUR,
      longestTokenLifetimeMs: HOUR,
      refreshMs: 60_000,
      now: t0,
    });
    expect(result).toEqual({
      kid: expect.any(String) as string,
      activatesAt: '2026-11-22T11:00:00.000Z',
      retired: [
        {
          kid: current,
          retiresAt: '2026-11-22T11:00:00.000Z',
          expiresAt: '2026-11-23T12:00:00.000Z',
        },
      ],
      pruned: [],
      warnings: [],
    });
    const listed = await listKeysCommand(db.em(), new Date(t0.getTime() + 1000));
    expect(listed.map(({ kid, status }) => ({ kid, status }))).toEqual([
      { kid: result.kid, status: 'pending' },
      { kid: current, status: 'active' },
    ]);
  });

  it('warns when the new key would sign before every instance has reloaded', async ({ db }) => {
    await ensureSigningKey(db.em(), kek);
    const result = await rotateKeysCommand(db.em(), {
      kek,
      activateAfterMs: 0,
      retireAfterMs: HOUR,
      longestTokenLifetimeMs: HOUR,
      refreshMs: 60_000,
    });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('every 60s');
  });

  it('runs as a command with the deployment key and prints JSON', async ({ db }) => {
    const kekHex = Buffer.from(kek).toString('hex');
    const run = await cli(db, ['keys', 'rotate', '--activate-after', '2h', '--json'], {
      KEY_ENCRYPTION_KEY: kekHex,
      ACCESS_TOKEN_TTL_SECONDS: '600',
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { kid: string; activatesAt: string };
    const activatesIn = Date.parse(output.activatesAt) - Date.now();
    expect(activatesIn).toBeGreaterThan(2 * HOUR - 60_000);
    expect(activatesIn).toBeLessThanOrEqual(2 * HOUR);

    const stored = await db.em().findOneOrFail(SigningKeyEntity, { kid: output.kid });
    expect(decryptPrivateJwk(stored.privateKeyEncrypted, kek, output.kid).d).toEqual(
      expect.any(String),
    );
    expect(() =>
      decryptPrivateJwk(stored.privateKeyEncrypted, developmentKeyEncryptionKey().key, output.kid),
    ).toThrow(KeyEncryptionError);

    const list = await cli(db, ['keys', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ kid: output.kid, status: 'pending', retiresAt: null }),
    ]);
  });

  it('retires the current key for the access-token lifetime plus a day by default', async ({
    db,
  }) => {
    const { kid } = await ensureSigningKey(db.em(), developmentKeyEncryptionKey().key);
    const run = await cli(db, ['keys', 'rotate', '--json'], { ACCESS_TOKEN_TTL_SECONDS: '600' });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as {
      kid: string;
      retired: { kid: string; retiresAt: string; expiresAt: string }[];
      warnings: string[];
    };
    // Created under the development key the auth service of this checkout uses, and said so.
    expect(output.warnings).toEqual([
      expect.stringContaining(`KEY_ENCRYPTION_KEY is not set: using the development key`),
    ]);
    const stored = await db.em().findOneOrFail(SigningKeyEntity, { kid: output.kid });
    expect(
      decryptPrivateJwk(stored.privateKeyEncrypted, developmentKeyEncryptionKey().key, output.kid)
        .d,
    ).toEqual(expect.any(String));
    const [retired] = output.retired;
    expect(retired?.kid).toBe(kid);
    expect(Date.parse(retired!.expiresAt) - Date.parse(retired!.retiresAt)).toBe(
      600_000 + 24 * HOUR,
    );
  });

  it('refuses to unpublish the replaced key before the tokens it signed expire', async ({ db }) => {
    const { kid } = await ensureSigningKey(db.em(), kek, { now: t0 });
    await expect(
      rotateKeysCommand(db.em(), {
        kek,
        activateAfterMs: HOUR,
        retireAfterMs: 10 * 60_000,
        longestTokenLifetimeMs: HOUR,
        refreshMs: 60_000,
        now: t0,
      }),
    ).rejects.toMatchObject({
      code: 'RETIRE_AFTER_TOO_SHORT',
      message: expect.stringContaining('--retire-after 10m is too short') as string,
    });
    const listed = await listKeysCommand(db.em(), t0);
    expect(listed.map(({ kid: k, status, retiresAt }) => ({ k, status, retiresAt }))).toEqual([
      { k: kid, status: 'active', retiresAt: null },
    ]);
  });

  it('refuses --retire-after 0s with a clear error and changes nothing', async ({ db }) => {
    await ensureSigningKey(db.em(), developmentKeyEncryptionKey().key);
    const run = await cli(db, ['keys', 'rotate', '--activate-after', '0s', '--retire-after', '0s']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error: --retire-after 0s is too short');
    expect(run.stderr).toContain('at least 1h after it stops signing');
    const json = await cli(db, ['keys', 'rotate', '--retire-after', '9m', '--json'], {
      ACCESS_TOKEN_TTL_SECONDS: '600',
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'RETIRE_AFTER_TOO_SHORT' } });
    expect(await db.em().count(SigningKeyEntity, {})).toBe(1);
    // Exactly the token lifetime is accepted.
    const accepted = await cli(db, ['keys', 'rotate', '--retire-after', '10m', '--json'], {
      ACCESS_TOKEN_TTL_SECONDS: '600',
    });
    expect(accepted.code).toBe(0);
  });

  it('refuses to run in production without KEY_ENCRYPTION_KEY', async ({ db }) => {
    const run = await cli(db, ['keys', 'rotate', '--json'], { NODE_ENV: 'production' });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({
      error: { code: 'MISSING_KEY_ENCRYPTION_KEY' },
    });
    expect(await db.em().count(SigningKeyEntity, {})).toBe(0);
  });
});
