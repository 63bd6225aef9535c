import { hash, randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import * as oidc from 'openid-client';
import type { SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import {
  allowOnConsentPage,
  authorizationParams,
  authorizeUrl,
  callbackParams,
} from '../test-support/authorization-helpers.ts';
import { servicesOf } from '../test-support/build-test-app.ts';
import { injectFetch, type SeenRequest } from '../test-support/inject-fetch.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  confidentialBasic,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  pkcePair,
  postForm,
  tokenRequest,
  type TokenResponse,
} from '../test-support/token-helpers.ts';

// The confidential demo client introspects the public one's tokens as a resource server would.
test.override(
  'appEnv',
  { scope: 'file' },
  { INTROSPECTION_RESOURCE_SERVERS: DemoClientId.confidential },
);

/** A DPoP key pair of a client, as an app keeps it. */
interface DpopKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  jkt: string;
}

async function newDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const publicJwk = await exportJWK(publicKey);
  return { privateKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

interface ProofClaims {
  htm?: string;
  htu?: string;
  nonce?: string;
  ath?: string;
  jti?: string;
  iat?: number;
}

/** A DPoP proof (RFC 9449 4.2) signed by `key`; a test may set any claim or header itself. */
function proof(
  key: DpopKey,
  claims: ProofClaims,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT({
    htm: claims.htm,
    htu: claims.htu,
    jti: claims.jti ?? randomUUID(),
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    ...(claims.nonce === undefined ? {} : { nonce: claims.nonce }),
    ...(claims.ath === undefined ? {} : { ath: claims.ath }),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.publicJwk, ...header })
    .sign(key.privateKey);
}

const tokenUrl = (app: AuthApp) => `${servicesOf(app).issuer}/oauth/token`;
const userinfoUrl = (app: AuthApp) => `${servicesOf(app).issuer}/oauth/userinfo`;
const nonceOf = (app: AuthApp) => servicesOf(app).dpop.nonce();
const accessTokenHash = (token: string) => hash('sha256', token, 'base64url');

/** A code exchange with PKCE (demo-public unless named) and the given DPoP header. */
async function exchangeCode(
  app: AuthApp,
  dpop: string | undefined,
  clientId: string = DemoClientId.public,
) {
  const { verifier, challenge } = pkcePair();
  const code = await issueCode(app, {
    clientId,
    userId: ids.users.alice,
    codeChallenge: challenge,
  });
  const confidential = clientId === DemoClientId.confidential;
  return tokenRequest(
    app,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: verifier,
      ...(confidential ? {} : { client_id: clientId }),
    },
    {
      ...(dpop === undefined ? {} : { dpop }),
      ...(confidential ? { authorization: confidentialBasic() } : {}),
    },
  );
}

async function boundTokens(app: AuthApp, key: DpopKey, clientId: string = DemoClientId.public) {
  const dpop = await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) });
  const response = await exchangeCode(app, dpop, clientId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TokenResponse>();
}

function refresh(app: AuthApp, refreshToken: string, dpop?: string) {
  return tokenRequest(
    app,
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: DemoClientId.public },
    dpop === undefined ? {} : { dpop },
  );
}

function userinfo(app: AuthApp, authorization: string, dpop?: string) {
  return app.inject({
    method: 'GET',
    url: '/oauth/userinfo',
    headers: { authorization, ...(dpop === undefined ? {} : { dpop }) },
  });
}

describe('DPoP with openid-client (RFC 9449)', () => {
  it('binds a public client’s tokens to its key: exchange, userinfo and refresh with proofs', async ({
    app,
  }) => {
    const seen: SeenRequest[] = [];
    const config = await oidc.discovery(
      new URL(servicesOf(app).issuer),
      DemoClientId.public,
      undefined,
      oidc.None(),
      { [oidc.customFetch]: injectFetch(app, seen), execute: [oidc.allowInsecureRequests] },
    );
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const DPoP = oidc.getDPoPHandle(config, keyPair);
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      codeChallenge: challenge,
    });
    const callback = new URL(DEMO_REDIRECT_URI);
    callback.search = new URLSearchParams({ code, iss: servicesOf(app).issuer }).toString();

    const tokens = await oidc.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, idTokenExpected: true },
      undefined,
      { DPoP },
    );
    // The first proof had no nonce: the server asked for one, the library sent it again.
    expect(seen.filter(({ url }) => url === '/oauth/token').map(({ status }) => status)).toEqual([
      400, 200,
    ]);
    expect(tokens.token_type).toBe('dpop');
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), 'sha256');
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt });

    const claims = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck, {
      DPoP,
    });
    expect(claims.sub).toBe(String(ids.users.alice));

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, {
      DPoP,
    });
    expect(refreshed.token_type).toBe('dpop');
    expect(decodeJwt(refreshed.access_token).cnf).toEqual({ jkt });
  });
});

describe('DPoP at the token endpoint', () => {
  it('answers Bearer tokens without cnf to a request without a proof', async ({ app }) => {
    const response = await exchangeCode(app, undefined);
    expect(response.statusCode).toBe(200);
    const tokens = response.json<TokenResponse>();
    expect(tokens.token_type).toBe('Bearer');
    expect(decodeJwt(tokens.access_token).cnf).toBeUndefined();
    expect(response.headers['dpop-nonce']).toBeUndefined();
  });

  it('asks for a nonce with use_dpop_nonce and DPoP-Nonce, and takes the proof that carries it', async ({
    app,
  }) => {
    const key = await newDpopKey();
    const without = await exchangeCode(app, await proof(key, { htm: 'POST', htu: tokenUrl(app) }));
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = without.headers['dpop-nonce'];
    expect(typeof nonce).toBe('string');

    const stale = await exchangeCode(
      app,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: 'made-up' }),
    );
    expect(stale.json()).toMatchObject({ error: 'use_dpop_nonce' });

    const withNonce = await exchangeCode(
      app,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: String(nonce) }),
    );
    expect(withNonce.statusCode).toBe(200);
    expect(withNonce.json()).toMatchObject({ token_type: 'DPoP' });
    expect(withNonce.headers['dpop-nonce']).toEqual(expect.any(String));
  });

  it.for([
    ['another URL', { htu: 'http://attacker.example/oauth/token' }],
    ['another method', { htm: 'GET' }],
    ['a proof from the future', { iat: Math.floor(Date.now() / 1000) + 3600 }],
    ['an old proof', { iat: Math.floor(Date.now() / 1000) - 3600 }],
  ] as const)('refuses a proof for %s with invalid_dpop_proof', async ([, claims], { app }) => {
    const key = await newDpopKey();
    const dpop = await proof(key, {
      htm: 'POST',
      htu: tokenUrl(app),
      nonce: nonceOf(app),
      ...claims,
    });
    const response = await exchangeCode(app, dpop);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_dpop_proof' });
  });

  it('refuses a proof used a second time', async ({ app }) => {
    const key = await newDpopKey();
    const dpop = await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) });
    expect((await exchangeCode(app, dpop)).statusCode).toBe(200);
    const replay = await exchangeCode(app, dpop);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_dpop_proof' });
  });

  it('refuses a proof with a private key, a symmetric algorithm, another typ or two headers', async ({
    app,
  }) => {
    const key = await newDpopKey();
    const claims = { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) };
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const leaked = await proof(key, claims, { jwk: await exportJWK(privateKey) });
    const hmac = await new SignJWT({
      ...claims,
      jti: randomUUID(),
      iat: Math.floor(Date.now() / 1000),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: key.publicJwk })
      .sign(new Uint8Array(32));
    const plainJwt = await proof(key, claims, { typ: 'JWT' });
    const two = `${await proof(key, claims)}, ${await proof(key, claims)}`;
    for (const dpop of [leaked, hmac, plainJwt, two, 'not-a-jwt']) {
      const response = await exchangeCode(app, dpop);
      expect(response.statusCode, dpop).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    }
  });

  it('refuses a bound refresh token without a proof of its key: a stolen token is useless', async ({
    app,
  }) => {
    const key = await newDpopKey();
    const tokens = await boundTokens(app, key);

    const withoutProof = await refresh(app, tokens.refresh_token!);
    expect(withoutProof.statusCode).toBe(400);
    expect(withoutProof.json()).toMatchObject({ error: 'invalid_grant' });

    const thief = await newDpopKey();
    const otherKey = await refresh(
      app,
      tokens.refresh_token!,
      await proof(thief, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(otherKey.json()).toMatchObject({ error: 'invalid_grant' });

    const owner = await refresh(
      app,
      tokens.refresh_token!,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(owner.statusCode, owner.body).toBe(200);
    expect(decodeJwt(owner.json<TokenResponse>().access_token).cnf).toEqual({ jkt: key.jkt });
  });

  it('uses a proof up only once the client authenticated: a refused request leaves it usable', async ({
    app,
  }) => {
    const key = await newDpopKey();
    const dpop = await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) });
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: DemoClientId.confidential,
      userId: ids.users.alice,
      codeChallenge: challenge,
    });
    const fields = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: verifier,
    };
    const wrongSecret = await tokenRequest(app, fields, {
      dpop,
      authorization: `Basic ${Buffer.from(`${DemoClientId.confidential}:wrong`).toString('base64')}`,
    });
    expect(wrongSecret.statusCode).toBe(401);
    const right = await tokenRequest(app, fields, { dpop, authorization: confidentialBasic() });
    expect(right.statusCode, right.body).toBe(200);
  });

  it('binds a public client’s family begun without DPoP from its first refresh with a proof', async ({
    app,
  }) => {
    const unbound = (await exchangeCode(app, undefined)).json<TokenResponse>();
    const key = await newDpopKey();
    const bound = await refresh(
      app,
      unbound.refresh_token!,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(bound.statusCode, bound.body).toBe(200);
    const next = bound.json<TokenResponse>().refresh_token!;
    const withoutProof = await refresh(app, next);
    expect(withoutProof.json()).toMatchObject({ error: 'invalid_grant' });
    const withProof = await refresh(
      app,
      next,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(withProof.statusCode, withProof.body).toBe(200);
  });

  it('binds a confidential client’s access token but not its refresh token', async ({ app }) => {
    const key = await newDpopKey();
    const tokens = await boundTokens(app, key, DemoClientId.confidential);
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt: key.jkt });
    const refreshed = await postForm(
      app,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      { authorization: confidentialBasic() },
    );
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json()).toMatchObject({ token_type: 'Bearer' });
  });
});

describe('DPoP at userinfo and introspection', () => {
  it('takes a bound token only with the DPoP scheme and a proof of its key and hash', async ({
    app,
  }) => {
    const key = await newDpopKey();
    const { access_token: token } = await boundTokens(app, key);
    const url = userinfoUrl(app);
    const ath = accessTokenHash(token);

    const asBearer = await userinfo(app, `Bearer ${token}`);
    expect(asBearer.statusCode).toBe(401);
    expect(asBearer.json()).toMatchObject({ error: 'invalid_token' });

    const noProof = await userinfo(app, `DPoP ${token}`);
    expect(noProof.statusCode).toBe(401);
    expect(noProof.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    expect(noProof.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof"/);

    const noHash = await userinfo(app, `DPoP ${token}`, await proof(key, { htm: 'GET', htu: url }));
    expect(noHash.json()).toMatchObject({ error: 'invalid_dpop_proof' });

    const thief = await newDpopKey();
    const otherKey = await userinfo(
      app,
      `DPoP ${token}`,
      await proof(thief, { htm: 'GET', htu: url, ath }),
    );
    expect(otherKey.json()).toMatchObject({ error: 'invalid_dpop_proof' });

    const usedProof = await proof(key, { htm: 'GET', htu: url, ath });
    const good = await userinfo(app, `DPoP ${token}`, usedProof);
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ sub: String(ids.users.alice) });

    // The same proof again: used up.
    const replayed = await userinfo(app, `DPoP ${token}`, usedProof);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ error: 'invalid_dpop_proof' });
  });

  it('refuses an unbound token sent with the DPoP scheme', async ({ app }) => {
    const response = await exchangeCode(app, undefined);
    const token = response.json<TokenResponse>().access_token;
    const key = await newDpopKey();
    const answer = await userinfo(
      app,
      `DPoP ${token}`,
      await proof(key, { htm: 'GET', htu: userinfoUrl(app), ath: accessTokenHash(token) }),
    );
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('reports the key of bound access and refresh tokens (cnf)', async ({ app }) => {
    const key = await newDpopKey();
    const tokens = await boundTokens(app, key, DemoClientId.confidential);
    const introspect = (token: string) =>
      postForm(app, '/oauth/introspect', { token }, { authorization: confidentialBasic() });
    const access = await introspect(tokens.access_token);
    expect(access.json()).toMatchObject({
      active: true,
      token_type: 'DPoP',
      cnf: { jkt: key.jkt },
    });

    const publicKey = await newDpopKey();
    const publicTokens = await boundTokens(app, publicKey);
    const refresh = await introspect(publicTokens.refresh_token!);
    expect(refresh.json()).toMatchObject({ active: true, cnf: { jkt: publicKey.jkt } });
  });
});

describe('DPoP from a browser app', () => {
  it('lets any origin send a DPoP header to the token endpoint and read the nonce', async ({
    app,
  }) => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/oauth/token',
      headers: {
        origin: 'https://app.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'dpop, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/\bDPoP\b/);
    const key = await newDpopKey();
    const answer = await exchangeCode(app, await proof(key, { htm: 'POST', htu: tokenUrl(app) }));
    expect(answer.headers['access-control-expose-headers']).toMatch(/\bDPoP-Nonce\b/);
  });
});

describe('dpop_jkt at the authorization endpoint (RFC 9449 10)', () => {
  async function codeBoundTo(
    app: AuthApp,
    signIn: (user: 'alice') => Promise<SignedInClient>,
    jkt: string,
  ) {
    return codeThrough(app, signIn, (challenge) =>
      authorizeUrl({ code_challenge: challenge, dpop_jkt: jkt }),
    );
  }

  /** A code for alice through the authorization URL `urlFor` makes of a fresh challenge. */
  async function codeThrough(
    app: AuthApp,
    signIn: (user: 'alice') => Promise<SignedInClient>,
    urlFor: (challenge: string) => string | Promise<string>,
  ) {
    const alice = await signIn('alice');
    const { verifier, challenge } = pkcePair();
    const start = await app.inject({
      method: 'GET',
      url: await urlFor(challenge),
      cookies: alice.cookies,
    });
    const decided = await allowOnConsentPage(app, alice.cookies, start);
    const code = callbackParams(decided).get('code');
    if (!code) throw new Error(`no code: ${decided.statusCode}`);
    return { code, verifier };
  }

  const redeem = (app: AuthApp, code: string, verifier: string, dpop?: string) =>
    tokenRequest(
      app,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: verifier,
        client_id: DemoClientId.public,
      },
      dpop === undefined ? {} : { dpop },
    );

  it('redeems a bound code only with a proof of the named key', async ({ app, signIn }) => {
    const key = await newDpopKey();
    const first = await codeBoundTo(app, signIn, key.jkt);
    const withoutProof = await redeem(app, first.code, first.verifier);
    expect(withoutProof.statusCode).toBe(400);
    expect(withoutProof.json()).toMatchObject({ error: 'invalid_grant' });

    const second = await codeBoundTo(app, signIn, key.jkt);
    const thief = await newDpopKey();
    const otherKey = await redeem(
      app,
      second.code,
      second.verifier,
      await proof(thief, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(otherKey.json()).toMatchObject({ error: 'invalid_grant' });

    const third = await codeBoundTo(app, signIn, key.jkt);
    const owner = await redeem(
      app,
      third.code,
      third.verifier,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(owner.statusCode, owner.body).toBe(200);
    expect(decodeJwt(owner.json<TokenResponse>().access_token).cnf).toEqual({ jkt: key.jkt });
  });

  it('binds the code to the key of a proof sent with the pushed request (RFC 9449 10.1)', async ({
    app,
    signIn,
  }) => {
    const key = await newDpopKey();
    const parUrl = `${servicesOf(app).issuer}/oauth/par`;
    const pushWithProof = async (challenge: string) => {
      const pushed = await postForm(
        app,
        '/oauth/par',
        authorizationParams({ code_challenge: challenge }),
        { dpop: await proof(key, { htm: 'POST', htu: parUrl }) },
      );
      expect(pushed.statusCode, pushed.body).toBe(201);
      const requestUri = pushed.json<{ request_uri: string }>().request_uri;
      return `/oauth/authorize?${new URLSearchParams({ client_id: DemoClientId.public, request_uri: requestUri }).toString()}`;
    };
    const first = await codeThrough(app, signIn, pushWithProof);
    expect((await redeem(app, first.code, first.verifier)).json()).toMatchObject({
      error: 'invalid_grant',
    });
    const second = await codeThrough(app, signIn, pushWithProof);
    const owner = await redeem(
      app,
      second.code,
      second.verifier,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
    );
    expect(owner.statusCode, owner.body).toBe(200);

    const other = await newDpopKey();
    const mismatch = await postForm(
      app,
      '/oauth/par',
      authorizationParams({ dpop_jkt: other.jkt }),
      { dpop: await proof(key, { htm: 'POST', htu: parUrl }) },
    );
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a dpop_jkt that is no thumbprint', async ({ app, signIn }) => {
    const alice = await signIn('alice');
    const response = await app.inject({
      method: 'GET',
      url: authorizeUrl({ dpop_jkt: 'not a thumbprint' }),
      cookies: alice.cookies,
    });
    expect(callbackParams(response).get('error')).toBe('invalid_request');
  });
});

describe('a client registered to require DPoP (RFC 9449 5.2)', () => {
  it('gets no tokens without a proof, and bound tokens with one', async ({
    app,
    registerClient,
  }) => {
    await registerClient({ clientId: 'dpop-only-app', requireDpop: true });
    const key = await newDpopKey();
    const without = await exchangeCode(app, undefined, 'dpop-only-app');
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ error: 'invalid_request' });

    const withProof = await exchangeCode(
      app,
      await proof(key, { htm: 'POST', htu: tokenUrl(app), nonce: nonceOf(app) }),
      'dpop-only-app',
    );
    expect(withProof.statusCode, withProof.body).toBe(200);
    expect(withProof.json()).toMatchObject({ token_type: 'DPoP' });
    const refreshWithout = await tokenRequest(app, {
      grant_type: 'refresh_token',
      refresh_token: withProof.json<TokenResponse>().refresh_token!,
      client_id: 'dpop-only-app',
    });
    expect(refreshWithout.statusCode).toBe(400);
    expect(refreshWithout.json()).toMatchObject({ error: 'invalid_request' });
  });
});
