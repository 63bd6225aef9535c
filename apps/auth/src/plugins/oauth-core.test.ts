import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  defaultDevelopmentKeyFile,
  developmentKeyEncryptionKey,
  ensureSigningKey,
  KeyEncryptionError,
  loadPublishedSigningKeys,
} from '@foodshare/domain';
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';
import { resolveSecrets } from './oauth-core.ts';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

function collectingStream(lines: LogLine[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
}

const WARN = 40;
const randomKek = () => new Uint8Array(randomBytes(32));
/** The development key of earlier checkouts, derived from a string that was in the repository. */
const legacyDevelopmentKek = new Uint8Array(
  createHash('sha256').update('foodshare development key-encryption key').digest(),
);

describe('the key-encryption key of the auth service', () => {
  it('is, without KEY_ENCRYPTION_KEY outside production, the checkout’s generated development key', () => {
    const warnings: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };
    const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: 'postgres://x/y' });
    const secrets = resolveSecrets(config, log as never);
    expect(secrets.keyEncryptionKey).toEqual(developmentKeyEncryptionKey().key);
    expect(secrets.developmentKeyFile).toBe(defaultDevelopmentKeyFile());
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
    expect(configured).toMatchObject({ keyEncryptionKey: kek, developmentKeyFile: null });
    expect(warnings).toHaveLength(1);
  });

  it('is never the development key in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x/y',
      BASE_URL: 'https://food.example.org',
      KEY_ENCRYPTION_KEY: 'ab'.repeat(32),
      CLIENT_SECRET_PEPPER: 'a-production-pepper',
    });
    const log = { warn: () => undefined };
    // As if the configuration check had let it through: the secrets refuse it on their own.
    const { KEY_ENCRYPTION_KEY: _unset, ...withoutKey } = config;
    expect(() => resolveSecrets(withoutKey, log as never)).toThrow(
      'KEY_ENCRYPTION_KEY: required in production',
    );
  });

  it('in development, retires signing keys of the legacy development key instead of failing to start', async () => {
    const lines: LogLine[] = [];
    const { app } = await buildTestApp(
      { LOG_LEVEL: 'warn' },
      { logStream: collectingStream(lines) },
    );
    try {
      // A key stored before the development key became per checkout (the old repository
      // constant): this checkout's key does not open it.
      const { kid: earlier } = await ensureSigningKey(app.orm.em.fork(), legacyDevelopmentKek);
      await app.ready();

      const token = await app.oauth.keys.signJwt({ exp: Math.floor(Date.now() / 1000) + 60 });
      const signer = decodeProtectedHeader(token).kid;
      expect(signer).not.toBe(earlier);
      // Still published: tokens it signed verify until they expire.
      const kids = (await app.oauth.keys.publicJwks()).keys.map((key) => key.kid);
      expect(kids.sort()).toEqual([earlier, signer].sort());

      const warnings = lines.filter((line) => line.level === WARN);
      expect(warnings.map((line) => line.msg)).toEqual([
        expect.stringContaining('KEY_ENCRYPTION_KEY is not set'),
        expect.stringContaining('retired signing keys of the legacy development key'),
      ]);
      expect(warnings[1]).toMatchObject({ retired: [earlier], created: signer });
    } finally {
      await app.close();
    }
  });

  it('in development, refuses to start on signing keys of another key, and retires none', async () => {
    const { app } = await buildTestApp();
    try {
      // A development process pointed at a shared or staging database: its keys are that
      // deployment's, encrypted with its KEY_ENCRYPTION_KEY.
      const { kid } = await ensureSigningKey(app.orm.em.fork(), randomKek());
      const start = app.ready();
      await expect(start).rejects.toThrow(KeyEncryptionError);
      await expect(start).rejects.toThrow(/Set KEY_ENCRYPTION_KEY/);
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
