import { randomBytes } from 'node:crypto';
import {
  defaultDevelopmentKeyFile,
  developmentKeyEncryptionKey,
  ensureSigningKey,
  KeyEncryptionError,
  loadPublishedSigningKeys,
} from '@foodshare/domain';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { buildTestApp } from './test-support/build-test-app.ts';
import { resolveSecrets } from './auth-services.ts';

const randomKek = () => new Uint8Array(randomBytes(32));

describe('the key-encryption key of the auth service', () => {
  it('is, without KEY_ENCRYPTION_KEY outside production, the checkout’s generated development key', () => {
    const warnings: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };
    const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: 'postgres://x/y' });
    const secrets = resolveSecrets(config, log as never);
    expect(secrets.keyEncryptionKey).toEqual(developmentKeyEncryptionKey().key);
    // One warning line, naming the file.
    expect(warnings).toEqual([
      [
        expect.objectContaining({ file: defaultDevelopmentKeyFile() }),
        expect.stringContaining('KEY_ENCRYPTION_KEY is not set'),
      ],
    ]);

    const kek = randomKek();
    const configured = resolveSecrets(
      { ...config, KEY_ENCRYPTION_KEY: Buffer.from(kek).toString('hex') },
      log as never,
    );
    expect(configured.keyEncryptionKey).toEqual(kek);
    expect(warnings).toHaveLength(1);
  });

  it('in development, refuses to start on signing keys of another key, and changes none', async () => {
    const { app } = await buildTestApp();
    try {
      // A development process pointed at a shared or staging database: its keys are that
      // deployment's, encrypted with its KEY_ENCRYPTION_KEY.
      const { kid } = await ensureSigningKey(app.orm.em.fork(), randomKek());
      const start = app.ready();
      await expect(start).rejects.toThrow(KeyEncryptionError);
      await expect(start).rejects.toThrow(/KEY_ENCRYPTION_KEY/);
      const keys = await loadPublishedSigningKeys(app.orm.em.fork());
      expect(keys.map((key) => [key.kid, key.retiresAt])).toEqual([[kid, null]]);
    } finally {
      await app.close().catch(() => undefined);
    }
  });

  it('with a configured KEY_ENCRYPTION_KEY that does not open the stored key, refuses to start', async () => {
    const { app } = await buildTestApp({
      KEY_ENCRYPTION_KEY: Buffer.from(randomKek()).toString('hex'),
    });
    try {
      await ensureSigningKey(app.orm.em.fork(), randomKek());
      await expect(app.ready()).rejects.toThrow(KeyEncryptionError);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
