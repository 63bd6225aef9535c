import { servicesOf } from '../../test-support/build-test-app.ts';
import { type DisposableRedis, startDisposableRedis, waitFor } from '@foodshare/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { AuthApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import {
  DemoClientId,
  postForm,
  refreshRequest,
  registerTestClient,
  tokensFor,
  userinfoRequest,
} from '../../test-support/token-helpers.ts';

const ids = inject('demoIds');

/**
 * Revocations live in Redis for the token checks, and in many deployments Redis keeps nothing on
 * disk. Here the app runs on a Redis of the test's own that keeps nothing (no snapshots, no
 * append-only file), which the test restarts empty: what was revoked before stays revoked.
 */
describe('revocation across a restart of a Redis without persistence', () => {
  let redis: DisposableRedis;
  let app: AuthApp;
  let clients = 0;

  beforeAll(async () => {
    redis = await startDisposableRedis();
    ({ app } = await buildTestApp({ REDIS_URL: redis.url }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await redis?.dispose();
  });
  // Nothing a test left in Redis helps the next one.
  beforeEach(() => restartRedis());

  async function restartRedis() {
    await redis.restart();
    await waitFor('the app reaches the restarted Redis', async () => {
      await app.kv.ping();
      return true;
    });
  }

  const bobTokens = () => tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
  const revoke = (token: string) =>
    postForm(app, '/oauth/revoke', { token, client_id: DemoClientId.public });

  it('still refuses a revoked access token at userinfo, and accepts the others', async () => {
    const revoked = await bobTokens();
    const kept = await bobTokens();
    expect((await revoke(revoked.access_token)).statusCode).toBe(200);
    expect((await userinfoRequest(app, revoked.access_token)).statusCode).toBe(401);

    await restartRedis();
    expect(await app.kv.get('oauth:revocations:restored')).toBeNull();

    const userinfo = await userinfoRequest(app, revoked.access_token);
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.json()).toMatchObject({ error_description: 'The token was revoked' });
    expect((await userinfoRequest(app, kept.access_token)).statusCode).toBe(200);
  });

  it('still refuses the tokens of a revoked refresh family', async () => {
    const tokens = await bobTokens();
    expect((await revoke(tokens.refresh_token!)).statusCode).toBe(200);

    await restartRedis();

    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
    const refresh = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!);
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('still refuses the tokens of a grant the user ended on the connected-apps page', async () => {
    const tokens = await tokensFor(app, {
      clientId: DemoClientId.public,
      userId: ids.users.carla,
    });
    await servicesOf(app).grantRevocation.revokeGrant(ids.users.carla, DemoClientId.public);

    await restartRedis();

    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
  });

  it('still refuses the tokens of a client whose grants were ended', async () => {
    clients += 1;
    const clientId = `restart-ended-${clients}`;
    await registerTestClient(app, { clientId });
    const tokens = await tokensFor(app, { clientId, userId: ids.users.bob });
    await servicesOf(app).grantRevocation.endClientGrants(clientId, new Date());

    await restartRedis();

    const userinfo = await userinfoRequest(app, tokens.access_token);
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.json()).toMatchObject({
      error_description: 'The client of this token was deactivated or deleted since',
    });
    expect((await refreshRequest(app, clientId, tokens.refresh_token!)).statusCode).toBe(400);
  });
});
