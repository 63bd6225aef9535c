import type { AuthApp } from '../../app.ts';
import { clientBudgetKeys } from '../../clients/client-endpoint.ts';
import { basicAuth, DEMO_CLIENT_SECRET, DemoClientId } from '../../test-support/token-helpers.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';

const LIMIT = 3;
test.override(
  'appEnv',
  { scope: 'file' },
  {
    TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE: String(LIMIT),
    TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE: String(LIMIT),
  },
);

describe('POST /oauth/introspect rate limits', () => {
  const introspectAs = (
    app: AuthApp,
    clientId: string,
    secret: string,
    remoteAddress = '192.0.2.90',
    token = 'not-a-token',
  ) =>
    app.inject({
      method: 'POST',
      url: '/oauth/introspect',
      remoteAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(clientId, secret),
      },
      payload: new URLSearchParams({ token }).toString(),
    });

  function expectTooManyRequests(response: Awaited<ReturnType<typeof introspectAs>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  }

  it('limits the requests per client and minute with 429, apart from its token requests', async ({
    app,
    registerClient,
  }) => {
    await registerClient({ clientId: 'introspect-busy' }, 'busy-secret');
    // The token endpoint's budget, used up: introspection keeps its own.
    await app.kv.increment(clientBudgetKeys.client('introspect-busy'), 60_000, LIMIT);
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await introspectAs(app, 'introspect-busy', 'busy-secret')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    expectTooManyRequests(await introspectAs(app, 'introspect-busy', 'busy-secret', '192.0.2.91'));
    // Another client is not affected.
    expect(
      (await introspectAs(app, DemoClientId.confidential, DEMO_CLIENT_SECRET)).statusCode,
    ).toBe(200);
  });

  it('counts wrong secrets with those of the token endpoint, and then refuses unchecked', async ({
    app,
    registerClient,
  }) => {
    await registerClient({ clientId: 'introspect-guessed' }, 'guessed-secret');
    for (let i = 0; i < LIMIT; i++) {
      expect((await introspectAs(app, 'introspect-guessed', `wrong-${i}`)).statusCode).toBe(401);
    }
    // Past the limit even the right secret is refused unchecked, here and at the token endpoint.
    expectTooManyRequests(await introspectAs(app, 'introspect-guessed', 'guessed-secret'));
    const tokenRequest = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: '192.0.2.90',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth('introspect-guessed', 'guessed-secret'),
      },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }).toString(),
    });
    expectTooManyRequests(tokenRequest);
    // The client at its own address is not locked out by the guesser.
    const elsewhere = await introspectAs(app, 'introspect-guessed', 'guessed-secret', '192.0.2.92');
    expect(elsewhere.statusCode).toBe(200);
  });
});
