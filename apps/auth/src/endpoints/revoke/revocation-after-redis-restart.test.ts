import { type DisposableRedis, startDisposableRedis, waitFor } from '@foodshare/testing';
import type { AuthApp } from '../../app.ts';
import {
  DemoClientId,
  postForm,
  refreshRequest,
  tokensFor,
  userinfoRequest,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

// The app runs on a Redis of this file's own, which outlives it.
let redis: DisposableRedis;
// eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from it
test.override('appEnv', { scope: 'file' }, async ({}, { onCleanup }) => {
  redis = await startDisposableRedis();
  onCleanup(() => redis.dispose());
  return { REDIS_URL: redis.url };
});

/**
 * Revocations live in Redis for the token checks, and in many deployments Redis keeps nothing on
 * disk. Here the app runs on a Redis of the test's own that keeps nothing (no snapshots, no
 * append-only file), which the test restarts empty: what was revoked before stays revoked.
 */
describe('revocation across a restart of a Redis without persistence', () => {
  let clients = 0;

  // Nothing a test left in Redis helps the next one.
  test.beforeEach(({ app }) => restartRedis(app));

  async function restartRedis(app: AuthApp) {
    await redis.restart();
    await waitFor('the app reaches the restarted Redis', async () => {
      await app.kv.ping();
      return true;
    });
  }

  const bobTokens = (app: AuthApp) =>
    tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
  const revoke = (app: AuthApp, token: string) =>
    postForm(app, '/oauth/revoke', { token, client_id: DemoClientId.public });

  it('still refuses a revoked access token at userinfo, and accepts the others', async ({
    app,
  }) => {
    const revoked = await bobTokens(app);
    const kept = await bobTokens(app);
    expect((await revoke(app, revoked.access_token)).statusCode).toBe(200);
    expect((await userinfoRequest(app, revoked.access_token)).statusCode).toBe(401);

    await restartRedis(app);
    expect(await app.kv.get('oauth:revocations:restored')).toBeNull();

    const userinfo = await userinfoRequest(app, revoked.access_token);
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.json()).toMatchObject({ error_description: 'The token was revoked' });
    expect((await userinfoRequest(app, kept.access_token)).statusCode).toBe(200);
  });

  it('still refuses the tokens of a revoked refresh family', async ({ app }) => {
    const tokens = await bobTokens(app);
    expect((await revoke(app, tokens.refresh_token!)).statusCode).toBe(200);

    await restartRedis(app);

    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
    const refresh = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!);
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('still refuses the tokens of a grant the user ended on the connected-apps page', async ({
    app,
    services,
  }) => {
    const tokens = await tokensFor(app, {
      clientId: DemoClientId.public,
      userId: ids.users.carla,
    });
    await services.grantRevocation.revokeGrant(ids.users.carla, DemoClientId.public);

    await restartRedis(app);

    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
  });

  it('still refuses the tokens of a client whose grants were ended', async ({
    app,
    registerClient,
    services,
  }) => {
    clients += 1;
    const clientId = `restart-ended-${clients}`;
    await registerClient({ clientId });
    const tokens = await tokensFor(app, { clientId, userId: ids.users.bob });
    await services.grantRevocation.endClientGrants(clientId, new Date());

    await restartRedis(app);

    const userinfo = await userinfoRequest(app, tokens.access_token);
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.json()).toMatchObject({
      error_description: 'The client of this token was deactivated or deleted since',
    });
    expect((await refreshRequest(app, clientId, tokens.refresh_token!)).statusCode).toBe(400);
  });
});
