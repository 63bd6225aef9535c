import type { AuthApp } from '../../app.ts';
import {
  basicAuth,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  pkcePair,
  registerTestClient,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

const LIMIT = 3;
test.override(
  'appEnv',
  { scope: 'file' },
  {
    TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE: String(LIMIT),
    TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE: String(LIMIT),
    TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE: String(LIMIT),
  },
);

describe('POST /oauth/token rate limits (no client locks out another)', () => {
  const fromAddress = (
    app: AuthApp,
    remoteAddress: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
    url = '/oauth/token',
  ) =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });

  /** What anybody can send: demo-public's id and a made-up code. */
  const junkForDemoPublic = (app: AuthApp, remoteAddress: string) =>
    fromAddress(app, remoteAddress, {
      grant_type: 'authorization_code',
      code: 'made-up-code',
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: pkcePair().verifier,
      client_id: DemoClientId.public,
    });

  /** A real code exchange of demo-public from the address. */
  async function publicExchange(app: AuthApp, remoteAddress: string) {
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      codeChallenge: challenge,
    });
    return fromAddress(app, remoteAddress, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: verifier,
      client_id: DemoClientId.public,
    });
  }

  async function confidentialExchange(app: AuthApp, remoteAddress: string, secret: string) {
    const code = await issueCode(app, {
      clientId: DemoClientId.confidential,
      userId: ids.users.alice,
    });
    return fromAddress(
      app,
      remoteAddress,
      { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
      { authorization: basicAuth(DemoClientId.confidential, secret) },
    );
  }

  function expectTooManyRequests(response: Awaited<ReturnType<typeof fromAddress>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'temporarily_unavailable' });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  }

  it('lets one address spend only its own budget of a public client', async ({ app }) => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await junkForDemoPublic(app, '203.0.113.7')).statusCode).toBe(400);
    }
    expectTooManyRequests(await junkForDemoPublic(app, '203.0.113.7'));
    expectTooManyRequests(await publicExchange(app, '203.0.113.7'));
    // The users of demo-public elsewhere are not locked out by that flood.
    expect((await publicExchange(app, '203.0.113.8')).statusCode).toBe(200);
  });

  it('counts an IPv6 sender per /64, the unit one sender controls', async ({ app }) => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await junkForDemoPublic(app, `2001:db8:7:1::${i + 1}`)).statusCode).toBe(400);
    }
    expectTooManyRequests(await junkForDemoPublic(app, '2001:db8:7:1::ffff'));
    expect((await publicExchange(app, '2001:db8:7:2::1')).statusCode).toBe(200);
  });

  it('answers repeated wrong secrets with 429 and Retry-After, before checking the secret', async ({
    app,
  }) => {
    for (let i = 0; i < LIMIT; i++) {
      const refused = await confidentialExchange(app, '198.51.100.20', `wrong-secret-${i}`);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'invalid_client' });
    }
    expectTooManyRequests(await confidentialExchange(app, '198.51.100.20', 'wrong-secret-again'));
    // Past the limit even the right secret is refused: a guess is neither checked nor confirmed.
    expectTooManyRequests(await confidentialExchange(app, '198.51.100.20', DEMO_CLIENT_SECRET));
    // Secret guessing cannot move to the revocation endpoint, which authenticates alike.
    expectTooManyRequests(
      await fromAddress(
        app,
        '198.51.100.20',
        { token: 'anything' },
        { authorization: basicAuth(DemoClientId.confidential, 'wrong-secret-revoke') },
        '/oauth/revoke',
      ),
    );
    // The client itself, at its own address, is not locked out by the guesser.
    expect((await confidentialExchange(app, '198.51.100.21', DEMO_CLIENT_SECRET)).statusCode).toBe(
      200,
    );
  });

  it('lets no more wrong secrets than the limit be checked, however many arrive at once', async ({
    app,
  }) => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        confidentialExchange(app, '198.51.100.50', `guess-${i}`),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LIMIT);
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expectTooManyRequests(response);
    }
    // As at login: past the limit the right secret is refused unchecked until the window ends.
    expectTooManyRequests(await confidentialExchange(app, '198.51.100.50', DEMO_CLIENT_SECRET));
  });

  it('keeps a public client to its per-address budget under a burst', async ({ app }) => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => junkForDemoPublic(app, '203.0.113.60')),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.filter((status) => status !== 400 && status !== 429)).toEqual([]);
    expectTooManyRequests(await publicExchange(app, '203.0.113.60'));
  });

  it('counts wrong secrets at the revocation endpoint too', async ({ app }) => {
    await registerTestClient(app, { clientId: 'token-test-revoke-guess' }, 'revoke-guess-secret');
    const revokeWith = (secret: string) =>
      fromAddress(
        app,
        '198.51.100.30',
        { token: 'anything' },
        { authorization: basicAuth('token-test-revoke-guess', secret) },
        '/oauth/revoke',
      );
    for (let i = 0; i < LIMIT; i++) expect((await revokeWith(`wrong-${i}`)).statusCode).toBe(401);
    expectTooManyRequests(await revokeWith('revoke-guess-secret'));
  });

  it('spends a confidential client’s budget only on requests that proved its secret', async ({
    app,
  }) => {
    await registerTestClient(app, { clientId: 'token-test-own-budget' }, 'own-budget-secret');
    const exchange = async (remoteAddress: string, secret: string) => {
      const code = await issueCode(app, {
        clientId: 'token-test-own-budget',
        userId: ids.users.bob,
      });
      return fromAddress(
        app,
        remoteAddress,
        { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
        { authorization: basicAuth('token-test-own-budget', secret) },
      );
    };
    for (let i = 0; i < LIMIT; i++) {
      expect((await exchange('198.51.100.40', 'not-the-secret')).statusCode).toBe(401);
    }
    for (let i = 0; i < LIMIT; i++) {
      expect((await exchange('198.51.100.41', 'own-budget-secret')).statusCode).toBe(200);
    }
    // Its own budget, spent from any address, does limit it.
    expectTooManyRequests(await exchange('198.51.100.42', 'own-budget-secret'));
  });
});
