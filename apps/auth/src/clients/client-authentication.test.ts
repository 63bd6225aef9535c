import { countQueries } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import {
  basicAuth,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  postForm,
} from '../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';

/**
 * The secret-guessing limit at its default (ten failures per client, address and minute) under
 * bursts: a busy backend sends many requests at once from one address, all with the right
 * secret, and none of them may be refused for the others being in flight.
 */
describe('client authentication failures under bursts', () => {
  const LIMIT = 10;
  const BURST = 30;
  test.beforeAll(async ({ services }) => {
    expect(services.config.TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE).toBe(LIMIT);
  });

  async function exchange(app: AuthApp, remoteAddress: string, secret: string) {
    const code = await issueCode(app, {
      clientId: DemoClientId.confidential,
      userId: ids.users.bob,
    });
    return app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(DemoClientId.confidential, secret),
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
      }).toString(),
    });
  }

  it('never refuses a burst of requests with the right secret from one address', async ({
    app,
  }) => {
    const responses = await Promise.all(
      Array.from({ length: BURST }, () => exchange(app, '192.0.2.70', DEMO_CLIENT_SECRET)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(BURST).fill(200));
  });

  it('never refuses a burst of revocations with the right secret from one address', async ({
    app,
  }) => {
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        postForm(
          app,
          '/oauth/revoke',
          { token: 'not-a-token' },
          { authorization: basicAuth(DemoClientId.confidential, DEMO_CLIENT_SECRET) },
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(BURST).fill(200));
  });

  it('still checks no more wrong secrets than the limit when a burst mixes both', async ({
    app,
  }) => {
    const guesses = Array.from({ length: BURST }, (_, i) =>
      exchange(app, '192.0.2.71', `guess-${i}`),
    );
    const rightOnes = Array.from({ length: 5 }, () =>
      exchange(app, '192.0.2.72', DEMO_CLIENT_SECRET),
    );
    const statuses = (await Promise.all(guesses)).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(BURST - LIMIT);
    // The client at its own address is not caught by the guesser's limit.
    expect((await Promise.all(rightOnes)).map((response) => response.statusCode)).toEqual(
      Array(5).fill(200),
    );
    // Past the limit the right secret from the guessing address is refused unchecked.
    expect((await exchange(app, '192.0.2.71', DEMO_CLIENT_SECRET)).statusCode).toBe(429);
  });
});

describe('client ids no client can have', () => {
  it('refuses one longer than any client id without looking it up', async ({ app }) => {
    const { result, queries } = await countQueries(app.orm, () =>
      postForm(app, '/oauth/token', {
        grant_type: 'authorization_code',
        code: 'any-code',
        redirect_uri: DEMO_REDIRECT_URI,
        client_id: 'c'.repeat(513),
        client_secret: 'any-secret',
      }),
    );
    expect(result.statusCode).toBe(401);
    expect(result.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication failed',
    });
    expect(queries).toBe(0);
  });
});
