import { signInAs } from '@foodshare/server-kit/test-support';
import {
  databaseFingerprint,
  type DatabaseFingerprint,
  FUZZ_RUNS,
  fuzzOperations,
  parameterValue,
} from '@foodshare/testing/fuzz';
import fc from 'fast-check';
import { describe, expect, ids, it, test } from './test-support/fixtures.ts';

/** A parameter's value: one a client would send, or anything that has broken servers. */
const oneOf = (...good: string[]) =>
  fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...good) }, parameterValue({}));

const base64url = (text: string) => Buffer.from(text.toWellFormed()).toString('base64url');

/** A JWT-shaped token whose header and claims are generated, so its `kid` can be anything. */
const jwtLike = fc
  .record({
    kid: oneOf('key-1', 'a\r\nb', 'ключ'),
    alg: oneOf('RS256', 'none', 'HS256'),
    sub: oneOf('1'),
  })
  .map(
    ({ kid, alg, sub }) =>
      `${base64url(JSON.stringify({ alg, kid, typ: 'at+jwt' }))}.${base64url(JSON.stringify({ sub }))}.c2ln`,
  );

const authorization = fc.oneof(
  fc.constant(undefined),
  // A NUL as client_id and as secret: broke the client lookup once.
  fc.constant('Basic ADoA'),
  fc
    .tuple(oneOf('demo-confidential', 'demo-public', '\u0000'), oneOf('demo-secret', ''))
    .map(
      ([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`.toWellFormed()).toString('base64')}`,
    ),
  parameterValue({}).map((raw) => `Basic ${raw}`),
  jwtLike.map((token) => `Bearer ${token}`),
  parameterValue({}).map((raw) => `Bearer ${raw}`),
);

const CLIENT_IDS = ['demo-public', 'demo-confidential', 'demo-regional'];
const REDIRECT = 'http://localhost:9999/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSMtw-cM';

const authorizeParameters = {
  response_type: oneOf('code', 'token', 'code id_token'),
  client_id: oneOf(...CLIENT_IDS),
  redirect_uri: oneOf(REDIRECT, 'https://evil.example/cb'),
  scope: oneOf('openid', 'openid profile email regions', 'profile'),
  state: oneOf('xyz'),
  nonce: oneOf('n-0S6'),
  code_challenge: oneOf(CHALLENGE),
  code_challenge_method: oneOf('S256', 'plain'),
  prompt: oneOf('consent', 'none', 'login'),
  max_age: oneOf('0', '60'),
  ui_locales: oneOf('de', 'en'),
  request_uri: oneOf('urn:ietf:params:oauth:request_uri:abc'),
};

interface OauthOperation {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  parameters: Record<string, fc.Arbitrary<string>>;
}

/** The authorization server's endpoints and pages with the parameters each one reads. */
const OPERATIONS: OauthOperation[] = [
  { method: 'GET', url: '/oauth/authorize', parameters: authorizeParameters },
  { method: 'POST', url: '/oauth/authorize', parameters: authorizeParameters },
  {
    method: 'POST',
    url: '/oauth/par',
    parameters: { ...authorizeParameters, client_secret: oneOf('demo-secret') },
  },
  {
    method: 'POST',
    url: '/oauth/token',
    parameters: {
      grant_type: oneOf(
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ),
      code: oneOf('abc'),
      device_code: oneOf('abc'),
      redirect_uri: oneOf(REDIRECT),
      code_verifier: oneOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      refresh_token: jwtLike,
      client_id: oneOf(...CLIENT_IDS),
      client_secret: oneOf('demo-secret'),
      scope: oneOf('openid'),
    },
  },
  {
    method: 'POST',
    url: '/oauth/device_authorization',
    parameters: {
      client_id: oneOf(...CLIENT_IDS),
      client_secret: oneOf('demo-secret'),
      scope: oneOf('openid', 'openid offline_access', 'profile'),
    },
  },
  { method: 'GET', url: '/oauth/device', parameters: { user_code: oneOf('BCDF-GHJK', 'x') } },
  {
    method: 'POST',
    url: '/oauth/device',
    parameters: { user_code: oneOf('BCDF-GHJK', 'bcdf ghjk'), csrf: parameterValue({}) },
  },
  {
    method: 'POST',
    url: '/oauth/revoke',
    parameters: {
      token: fc.oneof(jwtLike, parameterValue({})),
      token_type_hint: oneOf('access_token', 'refresh_token'),
      client_id: oneOf(...CLIENT_IDS),
      client_secret: oneOf('demo-secret'),
    },
  },
  {
    method: 'POST',
    url: '/oauth/introspect',
    parameters: {
      token: fc.oneof(jwtLike, parameterValue({})),
      token_type_hint: oneOf('access_token', 'refresh_token'),
      client_id: oneOf(...CLIENT_IDS),
      client_secret: oneOf('demo-secret'),
    },
  },
  { method: 'GET', url: '/oauth/userinfo', parameters: { access_token: jwtLike } },
  { method: 'POST', url: '/oauth/userinfo', parameters: { access_token: jwtLike } },
  {
    method: 'POST',
    url: '/oauth/consent',
    parameters: {
      request: parameterValue({}),
      csrf: parameterValue({}),
      decision: oneOf('allow', 'deny'),
      remember: oneOf('on'),
    },
  },
  { method: 'GET', url: '/login', parameters: { return_to: oneOf('/oauth/authorize', '//evil') } },
  {
    method: 'POST',
    url: '/login',
    parameters: {
      email: oneOf('alice@example.org', 'nobody@example.org'),
      password: oneOf('wrong-password'),
      return_to: oneOf('/connected-apps', '/.//evil.example/x'),
      csrf: parameterValue({}),
    },
  },
  { method: 'POST', url: '/logout', parameters: { csrf: parameterValue({}) } },
  { method: 'GET', url: '/connected-apps', parameters: {} },
  { method: 'GET', url: '/oauth/grants', parameters: {} },
  { method: 'DELETE', url: '/oauth/grants/demo-public', parameters: {} },
  {
    method: 'POST',
    url: '/connected-apps/demo-public/revoke',
    parameters: { csrf: parameterValue({}) },
  },
  { method: 'GET', url: '/.well-known/openid-configuration', parameters: {} },
  { method: 'GET', url: '/.well-known/jwks.json', parameters: {} },
  { method: 'GET', url: '/admin/oauthclients', parameters: {} },
  { method: 'GET', url: '/admin/oauthclients/new', parameters: {} },
  {
    method: 'POST',
    url: '/admin/oauthclients/new',
    parameters: {
      clientId: parameterValue({}),
      name: parameterValue({}),
      confidential: oneOf('on'),
      redirectUris: oneOf(REDIRECT),
      scopes: oneOf('openid'),
      grantTypes: oneOf('authorization_code'),
      requiredRegionIds: oneOf('3'),
      requirePushedAuthorizationRequests: oneOf('on'),
      backchannelLogoutUri: oneOf('https://app.example/bc', 'http://app.example/bc'),
      logoUri: oneOf('https://app.example/logo.png', 'data:image/png;base64,AAAA'),
      policyUri: oneOf('https://app.example/privacy', 'javascript:alert(1)'),
      csrf: parameterValue({}),
    },
  },
  {
    method: 'POST',
    url: '/admin/oauthclients/1/deactivate',
    parameters: { csrf: parameterValue({}) },
  },
];

type Caller = 'anonymous' | 'alice' | 'orga';

const requestOf = (operation: OauthOperation) =>
  fc.record({
    caller: fc.constantFrom<Caller>('anonymous', 'alice', 'orga'),
    csrfHeader: fc.boolean(),
    authorization,
    // Each parameter may be left out, and one may be sent twice.
    values: fc.record(operation.parameters, { requiredKeys: [] }),
    repeated: fc.option(fc.constantFrom(...Object.keys(operation.parameters), 'x'), {
      nil: undefined,
    }),
  });

describe('fuzzing every OAuth endpoint and page', () => {
  let fingerprint: DatabaseFingerprint;

  test.beforeAll(async ({ testApp }) => {
    fingerprint = await databaseFingerprint(testApp.database.url);
  });

  test.afterAll(async () => {
    await fingerprint?.close();
  });

  it('answers every generated request without a 5xx, and a refused write changes nothing', async ({
    app,
  }) => {
    const { failures, sent } = await fuzzOperations({
      operations: OPERATIONS,
      fingerprint,
      nameOf: (operation) => `${operation.method} ${operation.url}`,
      requestOf,
      async prepare(operation, generated) {
        const pairs = Object.entries(generated.values).map(
          ([key, value]) => [key, String(value).toWellFormed()] as [string, string],
        );
        if (generated.repeated) pairs.push([generated.repeated, 'again']);
        const encoded = new URLSearchParams(pairs).toString();

        const headers: Record<string, string> = {};
        if (generated.authorization) headers.authorization = generated.authorization;
        let cookies: Record<string, string> | undefined;
        if (generated.caller !== 'anonymous') {
          const client = await signInAs(app, ids.users[generated.caller]);
          cookies = client.cookies;
          if (generated.csrfHeader) Object.assign(headers, client.headers);
        }
        const isPost = operation.method === 'POST';
        if (isPost) headers['content-type'] = 'application/x-www-form-urlencoded';
        return {
          label: `${operation.method} ${operation.url} ${encoded.slice(0, 300)} as ${generated.caller}`,
          isWrite: isPost,
          send: () =>
            app.inject({
              method: operation.method,
              url: isPost || !encoded ? operation.url : `${operation.url}?${encoded}`,
              headers,
              ...(cookies ? { cookies } : {}),
              ...(isPost ? { payload: encoded } : {}),
            }),
        };
      },
    });
    expect(failures).toEqual([]);
    expect(sent).toBe(OPERATIONS.length * FUZZ_RUNS);
  }, 300_000);
});
