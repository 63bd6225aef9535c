import { OAuthClientEntity } from '@foodshare/domain';
import { openKeyValueStore } from '@foodshare/server-kit';
import { clientGrantCutoffKey, clientRowVersionKey } from '@foodshare/server-kit/oauth-grants';
import { freePort, workerRedis } from '@foodshare/testing';
import type { CliEnvironment } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { pepper, registerClient } from '../../test-support/oauth-clients.ts';
import { describe, expect, test } from '../../test-support/fixtures.ts';
import { withClientChange } from './client-change.ts';
import { clientsCommands } from './clients.command.ts';
import { rotateSecretCommand } from './secrets.command.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A runtime on `env` whose output the test reads. */
function capturingRuntime(env: CliEnvironment): { runtime: CliRuntime; run: Run } {
  const run: Run = { code: 0, stdout: '', stderr: '' };
  const runtime: CliRuntime = {
    env,
    io: {
      stdout: (text) => (run.stdout += `${text}\n`),
      stderr: (text) => (run.stderr += `${text}\n`),
      readStdin: () => Promise.resolve(''),
      fail: () => (run.code = 1),
    },
  };
  return { runtime, run };
}

/**
 * `clients …` run in this process on this file's database and on a Redis prefix of its own, as
 * the services would have it (REDIS_URL, REDIS_KEY_PREFIX); `version` reads a client's row
 * version through that same prefix.
 */
const it = test.extend('clients', { scope: 'file' }, async ({ db }, { onCleanup }) => {
  const redis = workerRedis('cli');
  const store = await openKeyValueStore({ redis: { url: redis.url }, keyPrefix: redis.keyPrefix });
  onCleanup(() => store.close());
  const env: CliEnvironment = {
    DATABASE_URL: db.url,
    CLIENT_SECRET_PEPPER: pepper,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redis.keyPrefix,
  };
  return {
    env,
    async run(args: string[], change: Partial<CliEnvironment> = {}): Promise<Run> {
      const { runtime, run } = capturingRuntime({ ...env, ...change });
      await clientsCommands(runtime).exitOverride().parseAsync(args, { from: 'user' });
      return run;
    },
    version: (clientId: string) => store.get(clientRowVersionKey(clientId)),
    /** Removes what the commands left in Redis for the client. */
    async forget(clientId: string) {
      await store.delete(clientRowVersionKey(clientId));
      await store.delete(clientGrantCutoffKey(clientId));
    },
  };
});

describe('client changes are announced to the auth instances', () => {
  it.for<[string, string[], string[] | null]>([
    ['update', ['update', '--name', 'Renamed'], ['update', '--name', 'Renamed']],
    [
      'set-post-logout-uris',
      ['set-post-logout-uris', '--post-logout-redirect-uri', 'https://app.example/bye'],
      ['set-post-logout-uris', '--post-logout-redirect-uri', 'https://app.example/bye'],
    ],
    [
      'set-protocol-options',
      ['set-protocol-options', '--require-par'],
      ['set-protocol-options', '--require-par'],
    ],
    ['deactivate', ['deactivate'], ['deactivate']],
    ['delete', ['delete', '--yes'], null],
  ])(
    '`clients %s` gives the client a new row version, and none when nothing changed',
    async ([name, args, again], { db, clients }) => {
      const clientId = `announced-${name}`;
      await registerClient(db, clientId);
      const before = await clients.version(clientId);

      const run = await clients.run([...args, '--client-id', clientId]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const after = await clients.version(clientId);
      expect(after).not.toBeNull();
      expect(after).not.toBe(before);

      if (again) {
        const unchanged = await clients.run([...again, '--client-id', clientId, '--json']);
        expect(unchanged.code).toBe(0);
        expect(await clients.version(clientId)).toBe(after);
      }
      await clients.forget(clientId);
    },
  );

  it('`clients rotate-secret` and `clients end-previous-secret` give a new row version each, none when no previous secret was left', async ({
    db,
    clients,
  }) => {
    await registerClient(db, 'announced-secrets', { confidential: true });
    const rotated = await clients.run(['rotate-secret', '--client-id', 'announced-secrets']);
    expect(rotated.code).toBe(0);
    const afterRotation = await clients.version('announced-secrets');
    expect(afterRotation).not.toBeNull();

    const ended = await clients.run(['end-previous-secret', '--client-id', 'announced-secrets']);
    expect(ended.stdout).toMatch(/^Ended the previous secret/);
    const afterEnding = await clients.version('announced-secrets');
    expect(afterEnding).not.toBeNull();
    expect(afterEnding).not.toBe(afterRotation);

    const none = await clients.run(['end-previous-secret', '--client-id', 'announced-secrets']);
    expect(none.stdout).toMatch(/nothing changed/);
    expect(await clients.version('announced-secrets')).toBe(afterEnding);
    await clients.forget('announced-secrets');
  });

  it('refuses a change while Redis is out of reach, changing nothing', async ({ db, clients }) => {
    await registerClient(db, 'redis-gone');
    const run = await clients.run(
      ['update', '--client-id', 'redis-gone', '--name', 'Unannounced', '--json'],
      { REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'STATE_STORE_UNAVAILABLE' } });
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'redis-gone' });
    expect(stored.name).toBe('App redis-gone');
  });

  it('reports a change whose announcement failed as done, with a warning about the 30 seconds', async ({
    db,
    clients,
  }) => {
    await registerClient(db, 'announcement-lost', { confidential: true });
    const { runtime, run } = capturingRuntime(clients.env);
    // Redis goes away between the change's commit and its announcement.
    const result = await withClientChange(runtime, 'announcement-lost', async (em, { store }) => {
      const rotated = await rotateSecretCommand(em, 'announcement-lost', pepper);
      await store.close();
      return rotated;
    });
    expect(result.clientId).toBe('announcement-lost');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^Warning: client announcement-lost changed, but Redis .*30 seconds/,
    );
    expect(await clients.version('announcement-lost')).toBeNull();

    // The rotation held: the new secret is the client's, the old one its previous.
    const stored = await db
      .em()
      .findOneOrFail(OAuthClientEntity, { clientId: 'announcement-lost' });
    expect(stored.previousSecretHash).not.toBeNull();
    await clients.forget('announcement-lost');
  });
});
