import { createHash, randomBytes } from 'node:crypto';
import { buildAuthServer } from '@foodshare/auth/app';
import { loadConfig as loadAuthConfig } from '@foodshare/auth/config';
import { AccountError, createOAuthClient, UserEntity, verifyPassword } from '@foodshare/domain';
import { SessionStore } from '@foodshare/server-kit';
import { testServiceEnv } from '@foodshare/testing';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { resetPasswordCommand } from './reset-password.command.ts';

describe('users reset-password', () => {
  it('sets the password, ends every session and the refresh tokens', async ({
    db,
    store,
    newUser,
  }) => {
    const target = await newUser();
    const sessions = new SessionStore(store);
    const first = await sessions.create(target.id, { rememberMe: false });
    const second = await sessions.create(target.id, { rememberMe: true });
    const bystander = await sessions.create(target.id + 100_000, { rememberMe: false });

    const result = await resetPasswordCommand(
      db.em(),
      store,
      { email: target.email },
      'second-password',
    );
    expect(result).toEqual({
      id: target.id,
      email: target.email,
      sessionsEnded: 2,
      appsEnded: [],
    });
    const stored = await db.em().findOneOrFail(UserEntity, target.id);
    expect(await verifyPassword(stored.passwordHash, 'second-password')).toBe(true);
    expect(await verifyPassword(stored.passwordHash, 'first-password')).toBe(false);
    expect(stored.tokensValidAfter).toBeInstanceOf(Date);
    expect(await sessions.find(first.id)).toBeNull();
    expect(await sessions.find(second.id)).toBeNull();
    expect(await sessions.find(bystander.id)).not.toBeNull();
    await sessions.destroy(bystander);
  });

  it('refuses a short password and changes nothing', async ({ db, store, newUser }) => {
    const target = await newUser();
    const attempt = resetPasswordCommand(db.em(), store, { id: target.id }, 'short');
    await expect(attempt).rejects.toThrow(AccountError);
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const stored = await db.em().findOneOrFail(UserEntity, target.id);
    expect(await verifyPassword(stored.passwordHash, 'first-password')).toBe(true);
    expect(stored.tokensValidAfter ?? null).toBeNull();
  });
});

// Issue 31, finding 4: after a reset, the user's access tokens kept working up to an hour.
describe('users reset-password and the OAuth tokens issued before it', () => {
  it('leaves none working: userinfo refuses the access token, and the refresh token fails', async ({
    db,
    newUser,
  }) => {
    // The authorization server on this test's own database and Redis prefix.
    const { env } = await testServiceEnv('cli');
    const { app: auth, services: authServices } = await buildAuthServer(loadAuthConfig(env));
    try {
      await auth.ready();
      const target = await newUser();
      const redirectUri = 'https://rp.example/callback';
      await createOAuthClient(
        db.em(),
        {
          clientId: 'reset-rp',
          name: 'Reset RP',
          confidential: false,
          redirectUris: [redirectUri],
          scopes: ['openid', 'email'],
          grantTypes: ['authorization_code', 'refresh_token'],
        },
        { pepper: '' },
      );
      // A code as /oauth/authorize issues it after the user signed in, redeemed at /oauth/token.
      const verifier = randomBytes(32).toString('base64url');
      const code = await authServices.codes.issue({
        clientId: 'reset-rp',
        userId: target.id,
        redirectUri,
        scopes: ['openid', 'email'],
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        nonce: null,
        authTime: Math.floor(Date.now() / 1000),
      });
      const exchanged = await auth.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          client_id: 'reset-rp',
        }).toString(),
      });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
      const tokens = exchanged.json<{ access_token: string; refresh_token: string }>();
      const userinfo = () =>
        auth.inject({
          method: 'GET',
          url: '/oauth/userinfo',
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
      expect((await userinfo()).statusCode).toBe(200);
      // A second code of the same sign-in, not yet redeemed when the password is reset.
      const laterVerifier = randomBytes(32).toString('base64url');
      const unredeemed = await authServices.codes.issue({
        clientId: 'reset-rp',
        userId: target.id,
        redirectUri,
        scopes: ['openid', 'email'],
        codeChallenge: createHash('sha256').update(laterVerifier).digest('base64url'),
        nonce: null,
        authTime: Math.floor(Date.now() / 1000),
      });

      // The store the service uses: the same Redis and key prefix as the command's in production.
      const result = await resetPasswordCommand(
        db.em(),
        auth.kv,
        { id: target.id },
        'second-password',
      );
      expect((await userinfo()).statusCode).toBe(401);
      expect(result.appsEnded).toEqual(['reset-rp']);
      const refreshed = await auth.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: 'reset-rp',
        }).toString(),
      });
      expect(refreshed.statusCode).toBe(400);
      const lateExchange = await auth.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code: unredeemed,
          redirect_uri: redirectUri,
          code_verifier: laterVerifier,
          client_id: 'reset-rp',
        }).toString(),
      });
      expect(lateExchange.statusCode, lateExchange.body).toBe(400);
      expect(lateExchange.json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await auth.close();
    }
  });
});
