import { randomUUID } from 'node:crypto';
import { DemoRegionId } from '@foodshare/domain';
import type { ApiApp } from '@foodshare/api/app';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { clientGrantCutoffs, RevocationLedger } from '@foodshare/server-kit/oauth-grants';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { authorizeUrl, formBody } from '../test-support/authorization-helpers.ts';
import { servicesOf } from '../test-support/build-test-app.ts';
import { describe, expect, ids, test } from '../test-support/fixtures.ts';
import {
  ALL_SCOPES,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  pkcePair,
  tokensFor,
} from '../test-support/token-helpers.ts';

/**
 * Access tokens at the REST API (docs/oauth.md §11): the authorization server on a real socket
 * issues them, and the API beside it, on the same database and Redis prefix, fetches its keys
 * from there, as in production. One server pair for the whole file.
 */
test.override('listen', { scope: 'file' }, true);

const it = test.extend(
  'api',
  { scope: 'file' },
  async ({ testApp, origin }, { onCleanup }): Promise<ApiApp> => {
    const [{ buildApp }, { loadConfig }] = await Promise.all([
      import('@foodshare/api/app'),
      import('@foodshare/api/config'),
    ]);
    // BASE_URL is the one public origin of both services: the issuer, and the API's audience.
    const api = await buildApp(loadConfig({ ...testApp.env, BASE_URL: origin }));
    onCleanup(() => api.close());
    await api.ready();
    return api;
  },
);

/** A client an admin allowed the scope `api`, and the scopes its tokens carry here. */
const API_CLIENT = 'api-tokens-app';
const API_SCOPES = ['openid', 'api'];

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** How a request authenticates: a browser session (cookie and CSRF header), or a token. */
interface Credentials {
  headers: Record<string, string>;
  cookies?: Record<string, string>;
}

const viaSession = (client: SignedInClient): Credentials => ({
  headers: client.headers,
  cookies: client.cookies,
});
const viaToken = (token: string, scheme = 'Bearer'): Credentials => ({
  headers: { authorization: `${scheme} ${token}` },
});

function call(api: ApiApp, who: Credentials, method: Method, url: string, body?: Body) {
  return api.inject({
    method,
    url,
    headers: who.headers,
    ...(who.cookies ? { cookies: who.cookies } : {}),
    ...(body === undefined ? {} : { payload: typeof body === 'function' ? body() : body }),
  });
}

const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
const now = new Date().toISOString();
const { users } = ids;
const NOBODY = 999_999;

/**
 * One call of every operation of the API's OpenAPI document but login and logout, by a demo
 * user, and the status a session of that user gets. A write that cannot be repeated names
 * something that is not there, or sends a body of the wrong shape: the answer still comes
 * after the caller and their permissions were checked.
 */
type Body = object | (() => object);
const operations: [
  method: Method,
  path: string,
  who: keyof typeof users,
  status: number,
  url?: string,
  body?: Body,
][] = [
  ['GET', '/api/users/current', 'alice', 200],
  [
    'POST',
    '/api/users/{recipientId}/bananas',
    'dana',
    400,
    `/api/users/${users.bob}/bananas`,
    { message: 5 },
  ],
  ['GET', '/api/users/{recipientId}/bananas', 'carla', 200, `/api/users/${users.bob}/bananas`],
  [
    'DELETE',
    '/api/users/{recipientId}/bananas/{senderId}',
    'orga',
    404,
    `/api/users/${users.bob}/bananas/${NOBODY}`,
  ],
  ['GET', '/api/chains/{chainId}', 'kim', 200, `/api/chains/${ids.chainId}`],
  [
    'PATCH',
    '/api/chains/{chainId}',
    'orga',
    200,
    `/api/chains/${ids.chainId}`,
    () => ({ name: `Markt ${randomUUID()}` }),
  ],
  ['GET', '/api/chains/{chainId}/kams', 'kim', 200, `/api/chains/${ids.chainId}/kams`],
  [
    'POST',
    '/api/conversations/{conversationId}/messages',
    'alice',
    200,
    `/api/conversations/${ids.conversationId}/messages`,
    { body: 'Von meiner App' },
  ],
  [
    'GET',
    '/api/conversations/{conversationId}/messages',
    'alice',
    200,
    `/api/conversations/${ids.conversationId}/messages`,
  ],
  [
    'POST',
    '/api/conversations/{conversationId}/readStatus',
    'alice',
    200,
    `/api/conversations/${ids.conversationId}/readStatus?read=1`,
  ],
  [
    'GET',
    '/api/conversations/{conversationId}',
    'alice',
    200,
    `/api/conversations/${ids.conversationId}`,
  ],
  ['GET', '/api/forum/post/{postId}/hide', 'dana', 200, `/api/forum/post/${ids.hiddenPostId}/hide`],
  [
    'PATCH',
    '/api/forum/post/{postId}/hide',
    'dana',
    400,
    `/api/forum/post/${ids.visiblePostId}/hide`,
    {},
  ],
  ['DELETE', '/api/forum/post/{postId}/hide', 'dana', 404, `/api/forum/post/${NOBODY}/hide`],
  [
    'GET',
    '/api/forum/threads/{threadId}/posts',
    'dana',
    200,
    `/api/forum/threads/${ids.forumThreadId}/posts`,
  ],
  ['POST', '/api/user/current/passport', 'alice', 200],
  ['GET', '/api/user/current/passport/generations', 'alice', 200],
  [
    'POST',
    '/api/users/current/quiz-sessions/{quizId}/confirmation',
    'carla',
    404,
    `/api/users/current/quiz-sessions/${NOBODY}/confirmation`,
  ],
  [
    'GET',
    '/api/quiz/{quizId}/questions/{questionId}/answers',
    'orga',
    404,
    `/api/quiz/1/questions/${NOBODY}/answers`,
  ],
  [
    'DELETE',
    '/api/quiz/{quizId}/questions/{questionId}/answers/{answerId}',
    'orga',
    404,
    `/api/quiz/1/questions/${NOBODY}/answers/${NOBODY}`,
  ],
  ['GET', '/api/regions/{regionId}', 'orga', 200, `/api/regions/${DemoRegionId.Musterstadt}`],
  [
    'GET',
    '/api/region/{regionId}/options',
    'dana',
    200,
    `/api/region/${DemoRegionId.Musterstadt}/options`,
  ],
  [
    'POST',
    '/api/region/{regionId}/options',
    'orga',
    200,
    `/api/region/${DemoRegionId.Musterstadt}/options`,
    { enableReportButton: 1 },
  ],
  [
    'GET',
    '/api/region/{regionId}/options/permissions',
    'dana',
    200,
    `/api/region/${DemoRegionId.Musterstadt}/options/permissions`,
  ],
  ['GET', '/api/users/{userId}/reports', 'orga', 200, `/api/users/${users.bob}/reports`],
  ['GET', '/api/resources/own', 'alice', 200],
  ['GET', '/api/search/index', 'alice', 200],
  [
    'GET',
    '/api/stores/{storeId}/log/{fromDate}/{toDate}/actions/{storeLogActionIds}',
    'alice',
    200,
    `/api/stores/${ids.storeId}/log/${monthAgo}/${now}/actions/1,2,3`,
  ],
  [
    'GET',
    '/api/stores/{storeId}/log/{fromDate}/{toDate}/{storeLogActionIds}',
    'alice',
    200,
    `/api/stores/${ids.storeId}/log/${monthAgo}/${now}/1,2,3`,
  ],
  ['GET', '/api/stores/{storeId}/requests', 'alice', 200, `/api/stores/${ids.storeId}/requests`],
  [
    'POST',
    '/api/stores/{storeId}/requests/{userId}',
    'alice',
    404,
    `/api/stores/${ids.storeId}/requests/${NOBODY}`,
  ],
  [
    'DELETE',
    '/api/stores/{storeId}/requests/{userId}',
    'alice',
    404,
    `/api/stores/${ids.storeId}/requests/${NOBODY}`,
  ],
  ['GET', '/api/uploads/{uploadId}', 'bob', 200, `/api/uploads/${ids.avatarUploadId}`],
  [
    'GET',
    '/api/groups/{groupId}/applications',
    'alice',
    200,
    `/api/groups/${DemoRegionId.MusterstadtWorkGroup}/applications`,
  ],
  [
    'DELETE',
    '/api/groups/{groupId}/applications/{userId}',
    'alice',
    200,
    `/api/groups/${DemoRegionId.MusterstadtWorkGroup}/applications/${users.dana}`,
  ],
];

it.beforeAll(async ({ registerClient }) => {
  for (const clientId of [API_CLIENT, `${API_CLIENT}-ended`]) {
    await registerClient({ clientId, scopes: [...ALL_SCOPES, 'api'] });
  }
});

describe('access tokens at /api', () => {
  const tokens = new Map<number, string>();

  /** An access token of API_CLIENT with `api` for the user (one per user for the file). */
  async function apiToken(app: Parameters<typeof tokensFor>[0], userId: number): Promise<string> {
    let token = tokens.get(userId);
    if (token === undefined) {
      token = (await tokensFor(app, { clientId: API_CLIENT, userId, scopes: API_SCOPES }))
        .access_token;
      tokens.set(userId, token);
    }
    return token;
  }

  it('names the API as the audience of a token with api, beside the client', async ({
    app,
    origin,
  }) => {
    const claims = decodeJwt(await apiToken(app, users.alice));
    expect(claims.aud).toEqual([API_CLIENT, `${origin}/api`]);
    const plain = await tokensFor(app, {
      clientId: API_CLIENT,
      userId: users.alice,
      scopes: ['openid'],
    });
    expect(decodeJwt(plain.access_token).aud).toBe(API_CLIENT);
  });

  it('lists every operation of the OpenAPI document but login and logout', async ({ api }) => {
    const document = (await api.inject({ url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const listed = operations.map(([method, path]) => `${method} ${path}`);
    expect(new Set(listed)).toEqual(
      new Set(documented.filter((operation) => !/\/api\/log(in|out)$/.test(operation))),
    );
  });

  it.for(operations)(
    '%s %s by %s: the status of a session (%i), without a CSRF token',
    async ([method, path, who, status, url = path, body], { app, api }) => {
      const session = await signInAs(api, users[who]);
      const bySession = await call(api, viaSession(session), method, url, body);
      expect(bySession.statusCode, bySession.body).toBe(status);
      const token = await apiToken(app, users[who]);
      const byToken = await call(api, viaToken(token), method, url, body);
      expect(byToken.statusCode, byToken.body).toBe(status);
    },
  );
});

describe('tokens the API refuses', () => {
  /** What the API answered, and its RFC 6750 challenge. */
  async function refusal(
    api: ApiApp,
    who: Credentials,
    method: Method = 'GET',
    url = '/api/users/current',
  ) {
    const response = await call(api, who, method, url);
    return {
      status: response.statusCode,
      code: response.json<{ code: string }>().code,
      challenge: String(response.headers['www-authenticate']),
    };
  }

  /** A token signed with the server's own keys, with any claims a test sets. */
  async function signedToken(
    app: Parameters<typeof tokensFor>[0],
    origin: string,
    claims: Record<string, unknown>,
    typ: string | null = 'at+jwt',
  ) {
    const iat = Math.floor(Date.now() / 1000);
    return servicesOf(app).keys.signJwt(
      {
        sub: String(users.alice),
        aud: [API_CLIENT, `${origin}/api`],
        client_id: API_CLIENT,
        scope: 'openid api',
        jti: randomUUID(),
        iat,
        exp: iat + 300,
        ...claims,
      },
      typ === null ? {} : { typ },
    );
  }

  it('answers 401 with both challenges to a request with neither session nor token', async ({
    api,
  }) => {
    expect(await refusal(api, { headers: {} })).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      challenge: expect.stringMatching(
        /^Bearer scope="api", DPoP scope="api", algs="ES256 /,
      ) as string,
    });
  });

  it('answers 403 insufficient_scope to a token without api, of a client not allowed it', async ({
    app,
    api,
  }) => {
    const { access_token: token } = await tokensFor(app, {
      clientId: DemoClientId.public,
      userId: users.alice,
    });
    expect(await refusal(api, viaToken(token))).toEqual({
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      challenge:
        'Bearer error="insufficient_scope", error_description="The access token lacks the scope api.", scope="api"',
    });
    // Nor can that client ask for api: only an admin puts it in a client's scopes.
    const authorize = await app.inject({ url: authorizeUrl({ scope: 'openid api' }) });
    expect(String(authorize.headers.location)).toContain('error=invalid_scope');
  });

  it('answers 401 invalid_token to an expired, forged, foreign-keyed, ID or other-audience token', async ({
    app,
    api,
    origin,
  }) => {
    const valid = await signedToken(app, origin, {});
    expect((await call(api, viaToken(valid), 'GET', '/api/users/current')).statusCode).toBe(200);
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await signedToken(app, origin, { iat: past - 300, exp: past });
    const [head, body] = valid.split('.');
    const other = (await signedToken(app, origin, { sub: String(users.bob) })).split('.')[2];
    const forged = `${head}.${body}.${other}`;
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ ...decodeJwt(valid) })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'not-ours' })
      .sign(privateKey);
    const idToken = await signedToken(app, origin, {}, null);
    const otherAudience = await signedToken(app, origin, { aud: API_CLIENT });
    const cases: [string, string, string][] = [
      ['expired', expired, 'The access token expired.'],
      ['forged', forged, 'The access token is invalid.'],
      ['foreign', foreign, 'The access token is invalid.'],
      ['ID token', idToken, 'The access token is invalid.'],
      ['other audience', otherAudience, 'The access token is not meant for this API.'],
      ['malformed', 'a b', 'The Authorization header is malformed.'],
    ];
    for (const [what, token, detail] of cases) {
      expect(await refusal(api, viaToken(token)), what).toEqual({
        status: 401,
        code: 'INVALID_TOKEN',
        challenge: `Bearer error="invalid_token", error_description="${detail}"`,
      });
    }
  });

  it('answers 401 to a revoked token, a deactivated account’s and a deactivated client’s', async ({
    app,
    api,
    newUser,
    sql,
  }) => {
    const { access_token: revoked } = await tokensFor(app, {
      clientId: API_CLIENT,
      userId: users.alice,
      scopes: API_SCOPES,
    });
    expect((await call(api, viaToken(revoked), 'GET', '/api/users/current')).statusCode).toBe(200);
    const revocation = await app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      ...formBody({ token: revoked, client_id: API_CLIENT }),
    });
    expect(revocation.statusCode).toBe(200);

    const userId = await newUser();
    const { access_token: deactivated } = await tokensFor(app, {
      clientId: API_CLIENT,
      userId,
      scopes: API_SCOPES,
    });
    await sql('update users set activated = false where id = ?', [userId]);

    const { access_token: ended } = await tokensFor(app, {
      clientId: `${API_CLIENT}-ended`,
      userId: users.alice,
      scopes: API_SCOPES,
    });
    const cutoffs = clientGrantCutoffs(
      new RevocationLedger(app.kv, () => app.orm.em.fork()),
      servicesOf(app).config,
    );
    await cutoffs.endGrants(`${API_CLIENT}-ended`, Date.now());

    const cases: [string, string][] = [
      [revoked, 'The access token was revoked.'],
      [deactivated, 'The account of this access token is no longer active.'],
      [ended, 'The application of this access token was deactivated since.'],
    ];
    for (const [token, detail] of cases) {
      expect(await refusal(api, viaToken(token))).toMatchObject({
        status: 401,
        code: 'INVALID_TOKEN',
        challenge: expect.stringContaining(detail) as string,
      });
    }
  });

  it('ignores the session cookie beside a token; login and logout take no token', async ({
    app,
    api,
  }) => {
    const bob = await signInAs(api, users.bob);
    const token = await tokensFor(app, {
      clientId: API_CLIENT,
      userId: users.alice,
      scopes: API_SCOPES,
    });
    const both: Credentials = {
      headers: viaToken(token.access_token).headers,
      cookies: bob.cookies,
    };
    const current = await call(api, both, 'GET', '/api/users/current');
    expect(current.json<{ id: number }>().id).toBe(users.alice);
    for (const url of ['/api/logout', '/api/login']) {
      expect(await refusal(api, both, 'POST', url)).toMatchObject({
        status: 403,
        code: 'SESSION_REQUIRED',
      });
    }
    // bob's session was not ended by the refused logout.
    expect((await call(api, viaSession(bob), 'GET', '/api/users/current')).statusCode).toBe(200);
  });
});

describe('DPoP-bound tokens at /api (RFC 9449 7)', () => {
  /**
   * openid-client over real HTTP to the authorization server; its calls to /api go to the API
   * beside it, which is not listening (the same origin: BASE_URL).
   */
  async function dpopClient(api: ApiApp, origin: string) {
    const proofsSent: string[] = [];
    const customFetch: oidc.CustomFetch = async (url, options) => {
      const { pathname, search } = new URL(url);
      if (!pathname.startsWith('/api/')) return fetch(url, options);
      const headers = Object.fromEntries(new Headers(options.headers).entries());
      if (headers.dpop) proofsSent.push(headers.dpop);
      const response = await api.inject({
        method: options.method as Method,
        url: pathname + search,
        headers,
      });
      return new Response(response.rawPayload.length > 0 ? response.rawPayload : null, {
        status: response.statusCode,
        headers: response.headers as Record<string, string>,
      });
    };
    const config = await oidc.discovery(new URL(origin), API_CLIENT, undefined, oidc.None(), {
      [oidc.customFetch]: customFetch,
      execute: [oidc.allowInsecureRequests],
    });
    const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    return { config, DPoP, proofsSent };
  }

  it('calls /api with a bound token and fresh proofs; refuses it without a proof, as Bearer, or with a proof used before', async ({
    app,
    api,
    origin,
  }) => {
    const { config, DPoP, proofsSent } = await dpopClient(api, origin);
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: API_CLIENT,
      userId: users.alice,
      scopes: API_SCOPES,
      codeChallenge: challenge,
    });
    const callback = new URL(DEMO_REDIRECT_URI);
    callback.search = new URLSearchParams({ code, iss: origin }).toString();
    const tokens = await oidc.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, idTokenExpected: true },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type).toBe('dpop');
    const url = new URL(`${origin}/api/users/current`);
    for (let i = 0; i < 2; i++) {
      const response = await oidc.fetchProtectedResource(
        config,
        tokens.access_token,
        url,
        'GET',
        undefined,
        undefined,
        { DPoP },
      );
      expect(response.status).toBe(200);
      expect(((await response.json()) as { id: number }).id).toBe(users.alice);
    }

    const token = tokens.access_token;
    expect(await refusalOf(api, { authorization: `Bearer ${token}` })).toMatchObject({
      status: 401,
      code: 'INVALID_TOKEN',
      challenge: expect.stringContaining('bound to a DPoP key') as string,
    });
    expect(await refusalOf(api, { authorization: `DPoP ${token}` })).toEqual({
      status: 401,
      code: 'INVALID_DPOP_PROOF',
      challenge: expect.stringMatching(
        /^DPoP error="invalid_dpop_proof", error_description="A DPoP proof is required"/,
      ) as string,
    });
    // A proof the library sent before, replayed.
    expect(proofsSent).toHaveLength(2);
    expect(
      await refusalOf(api, { authorization: `DPoP ${token}`, dpop: proofsSent[1]! }),
    ).toMatchObject({
      status: 401,
      code: 'INVALID_DPOP_PROOF',
      challenge: expect.stringContaining('The proof was used before') as string,
    });
  });
});

async function refusalOf(api: ApiApp, headers: Record<string, string>) {
  const response = await api.inject({ url: '/api/users/current', headers });
  return {
    status: response.statusCode,
    code: response.json<{ code: string }>().code,
    challenge: String(response.headers['www-authenticate']),
  };
}

describe('a quiz confirmed with a token', () => {
  it('keeps the user’s browser sessions, which carry the new role at once', async ({
    app,
    api,
  }) => {
    // carla passed quiz 1 in the demo data; her confirmation raises her role.
    const browser = await signInAs(api, users.carla);
    const { access_token: token } = await tokensFor(app, {
      clientId: API_CLIENT,
      userId: users.carla,
      scopes: API_SCOPES,
    });
    const confirmed = await call(
      api,
      viaToken(token),
      'POST',
      '/api/users/current/quiz-sessions/1/confirmation',
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { role, endedSessionCount } = confirmed.json<{
      role: number;
      endedSessionCount: number;
    }>();
    expect(endedSessionCount).toBe(0);
    const current = await call(api, viaSession(browser), 'GET', '/api/users/current');
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json<{ role: number }>().role).toBe(role);
  });
});
