import { createHash, randomBytes } from 'node:crypto';
import { buildAuthServer } from '@foodshare/auth/app';
import { loadConfig as loadAuthConfig } from '@foodshare/auth/config';
import {
  AccountError,
  createOAuthClient,
  createRegion,
  createUser,
  RegionType,
  Role,
  UserEntity,
  verifyPassword,
} from '@foodshare/domain';
import { openKeyValueStore, SessionStore, type KeyValueStore } from '@foodshare/server-kit';
import { testServiceEnv, workerRedis } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestOrm } from '../test-support/test-orm.ts';
import {
  deactivateUserCommand,
  listUsersCommand,
  parseUserRef,
  resetPasswordCommand,
  showUserCommand,
} from './user-admin.command.ts';

const db = useTestOrm();
let store: KeyValueStore;

beforeAll(async () => {
  const redis = workerRedis('cli');
  store = await openKeyValueStore({ redis: { url: redis.url }, keyPrefix: redis.keyPrefix });
});
afterAll(() => store.close());

let counter = 0;
async function user(change: { role?: Role; homeRegionId?: number } = {}) {
  counter += 1;
  return createUser(db.em(), {
    email: `person${counter}@example.org`,
    firstName: 'Person',
    lastName: String(counter),
    password: 'first-password',
    ...change,
  });
}

async function tokensValidAfter(id: number): Promise<Date | null> {
  return (await db.em().findOneOrFail(UserEntity, id)).tokensValidAfter ?? null;
}

describe('parseUserRef', () => {
  it('reads an id or an email address and refuses anything else', () => {
    expect(parseUserRef('42')).toEqual({ id: 42 });
    expect(parseUserRef(' Ada@Example.org ')).toEqual({ email: 'Ada@Example.org' });
    expect(() => parseUserRef('ada')).toThrow(/user id or an email address/);
    expect(() => parseUserRef('0')).toThrow(/positive integer/);
  });
});

describe('users list', () => {
  it('pages through users by id, filtered by role and by deactivation', async () => {
    const orga = await user({ role: Role.Orga });
    const other = await user({ role: Role.Orga });
    await user({ role: Role.Foodsaver });
    const orgas = await listUsersCommand(db.em(), { limit: 1000, offset: 0, role: Role.Orga });
    const ids = orgas.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining([orga.id, other.id]));
    expect(orgas.every((item) => item.role === Role.Orga)).toBe(true);

    const second = await listUsersCommand(db.em(), {
      limit: 1,
      offset: ids.indexOf(other.id),
      role: Role.Orga,
    });
    expect(second.map((item) => item.id)).toEqual([other.id]);

    await deactivateUserCommand(db.em(), { id: orga.id });
    const deactivated = await listUsersCommand(db.em(), {
      limit: 1000,
      offset: 0,
      deactivated: true,
    });
    expect(deactivated.map((item) => item.id)).toContain(orga.id);
    expect(deactivated.map((item) => item.id)).not.toContain(other.id);
    expect(deactivated.every((item) => !item.activated)).toBe(true);
  });
});

describe('users show', () => {
  it('shows a user by email or id, with the regions they are a member of', async () => {
    const region = await createRegion(db.em(), {
      name: 'Showstadt',
      type: RegionType.City,
      parentId: null,
    });
    const shown = await user({ homeRegionId: region.id });
    const byEmail = await showUserCommand(db.em(), { email: shown.email.toUpperCase() });
    expect(byEmail).toMatchObject({
      id: shown.id,
      email: shown.email,
      activated: true,
      memberOf: [region.id],
      lastLoginAt: null,
    });
    expect(await showUserCommand(db.em(), { id: shown.id })).toEqual(byEmail);
  });

  it('names an unknown user', async () => {
    await expect(showUserCommand(db.em(), { id: 999_999 })).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
  });
});

describe('users deactivate', () => {
  it('deactivates the account and ends its refresh tokens, once', async () => {
    const target = await user();
    expect(await tokensValidAfter(target.id)).toBeNull();
    const result = await deactivateUserCommand(db.em(), { email: target.email });
    expect(result).toEqual({ id: target.id, email: target.email, changed: true });
    const stored = await db.em().findOneOrFail(UserEntity, target.id);
    expect(stored.activated).toBe(false);
    const cutoff = stored.tokensValidAfter;
    expect(cutoff).toBeInstanceOf(Date);

    const again = await deactivateUserCommand(db.em(), { id: target.id });
    expect(again.changed).toBe(false);
    expect(await tokensValidAfter(target.id)).toEqual(cutoff);
  });
});

describe('users reset-password', () => {
  it('sets the password, ends every session and the refresh tokens', async () => {
    const target = await user();
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

  it('refuses a short password and changes nothing', async () => {
    const target = await user();
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
  it('leaves none working: userinfo refuses the access token, and the refresh token fails', async () => {
    // The authorization server on this test's own database and Redis prefix.
    const { env } = await testServiceEnv('cli');
    const { app: auth, services: authServices } = await buildAuthServer(loadAuthConfig(env));
    try {
      await auth.ready();
      const target = await user();
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
