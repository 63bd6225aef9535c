import {
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  prepareDemoDatabase,
} from '@foodshare/domain';
import { withDatabaseName, workerRedis } from '@foodshare/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onDatabaseServer, serverUrl } from '../start-process.ts';
import { followToClient } from './peer-consent.ts';
import { BENCH_SCOPES } from './sessions.ts';
import {
  BENCH_RESOURCE,
  BENCH_RESOURCE_SCOPE,
  startPeerServer,
  type PeerServer,
} from './peer-server.ts';

// The bench peer does the work `pnpm bench` compares ours with: proven here with a certified
// relying-party library, on our users table (the demo data) and Redis.
describe('the bench peer (node-oidc-provider)', () => {
  const databaseName = `fs_test_bench_peer_${process.pid}`;
  let peer: PeerServer;
  let alice: { id: number; email: string };

  beforeAll(async () => {
    await onDatabaseServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await onDatabaseServer(`CREATE DATABASE ${databaseName}`);
    const databaseUrl = withDatabaseName(serverUrl, databaseName);
    await prepareDemoDatabase(databaseUrl);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number; email: string }>(
        `select id, email from users where email = 'alice@example.org'`,
      );
      alice = rows[0]!;
    } finally {
      await client.end();
    }
    const redis = workerRedis('bench-peer');
    peer = await startPeerServer({ databaseUrl, redisUrl: redis.url, keyPrefix: redis.keyPrefix });
  });
  afterAll(async () => {
    await peer?.close();
    await onDatabaseServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  const configure = (clientId: string, auth: oidc.ClientAuth, secret?: string) =>
    oidc.discovery(new URL(peer.origin), clientId, secret, auth, {
      execute: [oidc.allowInsecureRequests],
    });

  /** A code from the peer's authorization endpoint for alice, with PKCE S256. */
  async function authorize(config: oidc.Configuration, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: DEMO_REDIRECT_URI,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      login_hint: String(alice.id),
      ...extra,
    });
    const { callback } = await followToClient(url.href);
    return { callback, checks: { pkceCodeVerifier: verifier, expectedState: state } };
  }

  it('exchanges a code for an RS256 JWT access token and rotates the refresh token', async () => {
    const config = await configure(
      DemoClientId.confidential,
      oidc.ClientSecretPost(DEMO_CLIENT_SECRET),
      DEMO_CLIENT_SECRET,
    );
    const { callback, checks } = await authorize(config, {
      scope: `${BENCH_SCOPES} ${BENCH_RESOURCE_SCOPE}`,
      resource: BENCH_RESOURCE,
    });
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    const jwks = createRemoteJWKSet(new URL(`${peer.origin}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: peer.origin,
      audience: BENCH_RESOURCE,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(payload.sub).toBe(String(alice.id));
    expect(protectedHeader.alg).toBe('RS256');
    // The same claims as ours (the demo's alice): the region lists, and groups in both tokens.
    const groups = ['region:3', 'workgroup:5', 'workgroup:5:admin'];
    expect(payload.groups).toEqual(groups);
    expect(tokens.claims()).toMatchObject({
      sub: String(alice.id),
      email: alice.email,
      region_ids: ['3', '5'],
      region_ambassador: ['5'],
      groups,
    });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await jwtVerify(refreshed.access_token, jwks, { audience: BENCH_RESOURCE, typ: 'at+jwt' });
    // Rotated: the first refresh token works once.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it("answers userinfo with the claims of alice's users row, to the public client too", async () => {
    const config = await configure(DemoClientId.public, oidc.None());
    const { callback, checks } = await authorize(config, { scope: BENCH_SCOPES });
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    const claims = await oidc.fetchUserInfo(config, tokens.access_token, String(alice.id));
    expect(claims).toEqual({
      sub: String(alice.id),
      email: alice.email,
      name: expect.stringMatching(/^Alice /) as unknown,
      given_name: 'Alice',
      family_name: expect.any(String) as unknown,
      region_ids: ['3', '5'],
      region_ambassador: ['5'],
      groups: ['region:3', 'workgroup:5', 'workgroup:5:admin'],
    });
  });
});
