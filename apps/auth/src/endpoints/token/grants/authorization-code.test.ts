import { servicesOf } from '../../../test-support/build-test-app.ts';
import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { AuthApp } from '../../../app.ts';
import {
  confidentialBasic,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueAgedCode,
  issueCode,
  pkcePair,
  refreshRequest,
  registerTestClient,
  tokenRequest,
  userinfoRequest,
} from '../../../test-support/token-helpers.ts';
import type { TokenResponse } from '../issue-tokens.ts';
import { describe, expect, ids, it } from '../../../test-support/fixtures.ts';

describe('authorization_code grant (RFC 6749 4.1.3, RFC 7636)', () => {
  async function publicCode(app: AuthApp, options: { nonce?: string } = {}) {
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      codeChallenge: challenge,
      ...options,
    });
    return { code, verifier, challenge };
  }

  const exchange = (
    app: AuthApp,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) => tokenRequest(app, { grant_type: 'authorization_code', ...fields }, headers);

  const publicExchange = (app: AuthApp, code: string, fields: Record<string, string> = {}) =>
    exchange(app, {
      code,
      redirect_uri: DEMO_REDIRECT_URI,
      client_id: DemoClientId.public,
      ...fields,
    });

  function expectInvalidGrant(
    response: Awaited<ReturnType<typeof tokenRequest>>,
    description?: string,
  ) {
    expect(response.statusCode).toBe(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: description ?? expect.any(String),
    });
  }

  async function jwks(app: AuthApp) {
    return createLocalJWKSet(await servicesOf(app).keys.publicJwks());
  }

  describe('tokens', () => {
    it('issues an RFC 9068 access token: RS256, typ at+jwt, kid, iss sub aud client_id scope jti iat exp', async ({
      app,
    }) => {
      const { code, verifier } = await publicCode(app);
      const response = await publicExchange(app, code, { code_verifier: verifier });
      expect(response.statusCode).toBe(200);
      const { access_token: accessToken } = response.json<TokenResponse>();
      const header = decodeProtectedHeader(accessToken);
      const published = (await servicesOf(app).keys.publicJwks()).keys.map((key) => key.kid);
      expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
      expect(published).toContain(header.kid);
      const { payload } = await jwtVerify(accessToken, await jwks(app), {
        typ: 'at+jwt',
        issuer: servicesOf(app).issuer,
        audience: DemoClientId.public,
      });
      expect(payload).toEqual({
        iss: servicesOf(app).issuer,
        sub: String(ids.users.alice),
        aud: DemoClientId.public,
        client_id: DemoClientId.public,
        scope: 'openid profile email regions',
        // docs/oauth.md §5.4: with regions, for relying parties that read the access token.
        groups: ['region:3', 'workgroup:5', 'workgroup:5:admin'],
        jti: expect.any(String),
        iat: expect.any(Number),
        exp: expect.any(Number),
      });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(30);
    });

    it('issues an ID token: RS256 with kid, iss sub aud azp exp iat auth_time, the nonce as sent, at_hash', async ({
      app,
    }) => {
      const nonce = 'n-0S6_WzA2Mj ünïcode';
      const { code, verifier } = await publicCode(app, { nonce });
      const tokens = (
        await publicExchange(app, code, { code_verifier: verifier })
      ).json<TokenResponse>();
      const idToken = tokens.id_token!;
      expect(decodeProtectedHeader(idToken)).toMatchObject({
        alg: 'RS256',
        kid: expect.any(String),
      });
      const { payload } = await jwtVerify(idToken, await jwks(app), {
        issuer: servicesOf(app).issuer,
        audience: DemoClientId.public,
      });
      const atHash = createHash('sha256')
        .update(tokens.access_token)
        .digest()
        .subarray(0, 16)
        .toString('base64url');
      expect(payload).toMatchObject({
        sub: String(ids.users.alice),
        aud: DemoClientId.public,
        azp: DemoClientId.public,
        nonce,
        at_hash: atHash,
        auth_time: expect.any(Number),
      });
      expect(payload.auth_time).toBeLessThanOrEqual(payload.iat!);
      expect(payload.exp).toBeGreaterThan(payload.iat!);
    });

    it('leaves nonce out of the ID token when none was sent', async ({ app }) => {
      const { code, verifier } = await publicCode(app);
      const tokens = (
        await publicExchange(app, code, { code_verifier: verifier })
      ).json<TokenResponse>();
      const { payload } = await jwtVerify(tokens.id_token!, await jwks(app));
      expect(payload).not.toHaveProperty('nonce');
    });

    it('carries the granted scopes, and the ID token only with openid', async ({ app }) => {
      const { verifier, challenge } = pkcePair();
      const code = await issueCode(app, {
        clientId: DemoClientId.public,
        userId: ids.users.bob,
        codeChallenge: challenge,
        scopes: ['openid', 'email'],
      });
      const tokens = (
        await publicExchange(app, code, { code_verifier: verifier })
      ).json<TokenResponse>();
      expect(tokens.scope).toBe('openid email');
      const { payload } = await jwtVerify(tokens.access_token, await jwks(app));
      expect(payload.scope).toBe('openid email');
      expect(payload.sub).toBe(String(ids.users.bob));
    });
  });

  describe('PKCE (RFC 7636, RFC 9700 2.1.1)', () => {
    it('refuses a public client without code_verifier: "Code challenge required"', async ({
      app,
    }) => {
      const { code } = await publicCode(app);
      expectInvalidGrant(await publicExchange(app, code), 'Code challenge required');
    });

    it('refuses a public client whose code was issued without a challenge', async ({ app }) => {
      const code = await issueCode(app, {
        clientId: DemoClientId.public,
        userId: ids.users.alice,
        codeChallenge: null,
      });
      expectInvalidGrant(await publicExchange(app, code), 'Code challenge required');
    });

    it('refuses a wrong verifier', async ({ app }) => {
      const { code } = await publicCode(app);
      expectInvalidGrant(await publicExchange(app, code, { code_verifier: pkcePair().verifier }));
    });

    it('refuses a plain verifier: the challenge itself sent as verifier', async ({ app }) => {
      const { code, challenge } = await publicCode(app);
      expectInvalidGrant(await publicExchange(app, code, { code_verifier: challenge }));
    });

    it.for<[string, string]>([
      ['42 characters', 'a'.repeat(42)],
      ['129 characters', 'a'.repeat(129)],
      ['a character outside [A-Za-z0-9-._~]', `${'a'.repeat(50)}+`],
    ])('refuses a verifier of %s', async ([, verifier], { app }) => {
      const { code } = await publicCode(app);
      expectInvalidGrant(await publicExchange(app, code, { code_verifier: verifier }));
    });

    it('refuses a verifier sent for a code issued without challenge (downgrade)', async ({
      app,
    }) => {
      const code = await issueCode(app, {
        clientId: DemoClientId.confidential,
        userId: ids.users.alice,
        codeChallenge: null,
      });
      const response = await exchange(
        app,
        { code, redirect_uri: DEMO_REDIRECT_URI, code_verifier: pkcePair().verifier },
        { authorization: confidentialBasic() },
      );
      expectInvalidGrant(response);
    });

    it('lets a confidential client without PKCE redeem its code', async ({ app }) => {
      const code = await issueCode(app, {
        clientId: DemoClientId.confidential,
        userId: ids.users.alice,
        codeChallenge: null,
      });
      const response = await exchange(
        app,
        { code, redirect_uri: DEMO_REDIRECT_URI },
        { authorization: confidentialBasic() },
      );
      expect(response.statusCode).toBe(200);
    });

    it('requires the verifier from a confidential client whose code has a challenge', async ({
      app,
    }) => {
      const { verifier, challenge } = pkcePair();
      const code = await issueCode(app, {
        clientId: DemoClientId.confidential,
        userId: ids.users.alice,
        codeChallenge: challenge,
      });
      const fields = { code, redirect_uri: DEMO_REDIRECT_URI };
      const headers = { authorization: confidentialBasic() };
      expectInvalidGrant(await exchange(app, fields, headers), 'Code challenge required');
      expect(
        (await exchange(app, { ...fields, code_verifier: verifier }, headers)).statusCode,
      ).toBe(200);
    });

    it('keeps the code redeemable after a failed verification', async ({ app }) => {
      const { code, verifier } = await publicCode(app);
      expectInvalidGrant(await publicExchange(app, code, { code_verifier: pkcePair().verifier }));
      expect((await publicExchange(app, code, { code_verifier: verifier })).statusCode).toBe(200);
    });
  });

  describe('the code', () => {
    it('must be redeemed with the identical redirect_uri', async ({ app }) => {
      const { code, verifier } = await publicCode(app);
      for (const redirectUri of [`${DEMO_REDIRECT_URI}/`, DEMO_REDIRECT_URI.toUpperCase()]) {
        expectInvalidGrant(
          await publicExchange(app, code, { code_verifier: verifier, redirect_uri: redirectUri }),
        );
      }
    });

    it('needs code and redirect_uri: invalid_request without them', async ({ app }) => {
      const { code, verifier } = await publicCode(app);
      for (const fields of [
        { redirect_uri: DEMO_REDIRECT_URI },
        { code, redirect_uri: '' },
      ] as Record<string, string>[]) {
        const response = await exchange(app, {
          ...fields,
          client_id: DemoClientId.public,
          code_verifier: verifier,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: 'invalid_request' });
      }
    });

    it('must have been issued to the client redeeming it', async ({ app }) => {
      const { code, verifier } = await publicCode(app);
      const response = await exchange(app, {
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: verifier,
        client_id: DemoClientId.regional,
      });
      expectInvalidGrant(response);
      // The rightful client can still redeem it.
      expect((await publicExchange(app, code, { code_verifier: verifier })).statusCode).toBe(200);
    });

    it('is refused when unknown: "Invalid or expired code"', async ({ app }) => {
      const response = await publicExchange(app, 'made-up-code', {
        code_verifier: pkcePair().verifier,
      });
      expectInvalidGrant(response, 'Invalid or expired code');
    });

    it('is refused from its 10th minute on: "Invalid or expired code"', async ({ app }) => {
      const { verifier, challenge } = pkcePair();
      const options = {
        clientId: DemoClientId.public,
        userId: ids.users.alice,
        codeChallenge: challenge,
      };
      const expired = await issueAgedCode(app, options, 600_000);
      expectInvalidGrant(
        await publicExchange(app, expired, { code_verifier: verifier }),
        'Invalid or expired code',
      );
      const fresh = await issueAgedCode(app, options, 590_000);
      expect((await publicExchange(app, fresh, { code_verifier: verifier })).statusCode).toBe(200);
    });

    it('is single use: a second use fails and revokes the tokens of the first (RFC 6749 4.1.2)', async ({
      app,
    }) => {
      const { code, verifier } = await publicCode(app);
      const first = await publicExchange(app, code, { code_verifier: verifier });
      expect(first.statusCode).toBe(200);
      const tokens = first.json<TokenResponse>();
      expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(200);

      expectInvalidGrant(
        await publicExchange(app, code, { code_verifier: verifier }),
        'Invalid or expired code',
      );

      const userinfo = await userinfoRequest(app, tokens.access_token);
      expect(userinfo.statusCode).toBe(401);
      expect(userinfo.headers['www-authenticate']).toContain('error="invalid_token"');
      expectInvalidGrant(await refreshRequest(app, DemoClientId.public, tokens.refresh_token!));
    });

    it('is redeemed by exactly one of 20 parallel requests, whose tokens the 19 others revoke', async ({
      app,
    }) => {
      const { code, verifier } = await publicCode(app);
      const { families } = servicesOf(app);
      const familiesBefore = await families.familiesOf(ids.users.alice, DemoClientId.public);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => publicExchange(app, code, { code_verifier: verifier })),
      );
      const winners = responses.filter((response) => response.statusCode === 200);
      const losers = responses.filter((response) => response.statusCode !== 200);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(19);
      for (const response of losers) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: 'invalid_grant',
          error_description: 'Invalid or expired code',
        });
      }
      // RFC 6749 10.5: each of the 19 is a second use of the code, which revokes what the first
      // use issued, whichever finished first: the winner's tokens are dead on arrival.
      const tokens = winners[0]!.json<TokenResponse>();
      const userinfo = await userinfoRequest(app, tokens.access_token);
      expect(userinfo.statusCode).toBe(401);
      expect(userinfo.headers['www-authenticate']).toContain('error="invalid_token"');
      expectInvalidGrant(await refreshRequest(app, DemoClientId.public, tokens.refresh_token!));
      // Nor is the dead grant left in the user's grant index, whichever request finished first.
      const { familyId } = (await servicesOf(app).refreshTokens.open(tokens.refresh_token!))!;
      const familiesAfter = await families.familiesOf(ids.users.alice, DemoClientId.public);
      expect(familiesAfter).not.toContain(familyId);
      // Nor any family a loser stored before it learnt that it lost.
      expect(familiesAfter.filter((id) => !familiesBefore.includes(id))).toEqual([]);
    });

    it('yields only the scopes its client is still registered for', async ({ app }) => {
      await registerTestClient(app, { clientId: 'code-test-scopes' });
      const { verifier, challenge } = pkcePair();
      const code = await issueCode(app, {
        clientId: 'code-test-scopes',
        userId: ids.users.alice,
        codeChallenge: challenge,
      });
      // An administrator takes email from the client between authorization and redemption.
      await app.orm.em
        .fork()
        .execute(
          `update oauth_clients set scopes = '{openid,profile,regions}' where client_id = ?`,
          ['code-test-scopes'],
        );
      const response = await exchange(app, {
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        client_id: 'code-test-scopes',
        code_verifier: verifier,
      });
      expect(response.statusCode).toBe(200);
      const tokens = response.json<TokenResponse>();
      expect(tokens.scope).toBe('openid profile regions');
      const { payload } = await jwtVerify(tokens.access_token, await jwks(app));
      expect(payload.scope).toBe('openid profile regions');
    });

    it('is refused when its user was deactivated meanwhile', async ({ app }) => {
      const { createUser } = await import('@foodshare/domain');
      const em = app.orm.em.fork();
      const user = await createUser(em, {
        firstName: 'Gone',
        lastName: 'Away',
        email: 'code-deactivated@example.org',
        password: 'a-long-enough-password',
      });
      const { verifier, challenge } = pkcePair();
      const code = await issueCode(app, {
        clientId: DemoClientId.public,
        userId: user.id,
        codeChallenge: challenge,
      });
      await em.execute('update users set activated = false where id = ?', [user.id]);
      expectInvalidGrant(await publicExchange(app, code, { code_verifier: verifier }));
    });
  });
});
