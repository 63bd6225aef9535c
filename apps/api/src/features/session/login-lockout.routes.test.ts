import { createUser } from '@foodshare/domain';
import type { ApiApp } from '../../app.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';

const PASSWORD = 'correct horse battery staple';
const OWNER = 'owen@example.org';
const HOME = '10.60.0.1';

const login = (app: ApiApp, email: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });

test.override(
  'appEnv',
  { scope: 'file' },
  {
    LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP: '3',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '6',
    LOGIN_MAX_FAILURES_PER_IP: '20',
  },
);

/**
 * Nobody may lock an owner out with wrong guesses: refused attempts are not counted, the
 * account's own limit does not apply to an address the owner logged in from, and past it a
 * new address still gets one try (the owner's correct password from a new place).
 */
describe('POST /api/login under a guessing attack on one account', () => {
  test.beforeAll(async ({ app }) => {
    const em = app.orm.em.fork();
    for (const email of [OWNER, 'olga@example.org']) {
      await createUser(em, { firstName: 'O', lastName: 'Owner', email, password: PASSWORD });
    }
  });

  it('counts no refused guess: a flood from one address leaves the account usable elsewhere', async ({
    app,
  }) => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      statuses.push((await login(app, 'olga@example.org', 'guess', '10.61.0.1')).statusCode);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(57);
    const owner = await login(app, 'olga@example.org', PASSWORD, '10.61.0.2');
    expect(owner.statusCode).toBe(200);
  });

  it('lets the owner in from a known address and from a new one once the account limit is spent', async ({
    app,
  }) => {
    expect((await login(app, OWNER, PASSWORD, HOME)).statusCode).toBe(200);

    // Guesses spread over addresses spend the account's limit (6) and then some.
    for (const attacker of ['10.62.0.1', '10.62.0.2', '10.62.0.3']) {
      for (let i = 0; i < 5; i++) await login(app, OWNER, 'guess', attacker);
    }
    // A further new address gets one guess, then is refused.
    expect((await login(app, OWNER, 'guess', '10.62.0.4')).statusCode).toBe(401);
    const refused = await login(app, OWNER, 'guess', '10.62.0.4');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // The owner at home is held to their own address's limit only.
    expect((await login(app, OWNER, 'typo', HOME)).statusCode).toBe(401);
    expect((await login(app, OWNER, PASSWORD, HOME)).statusCode).toBe(200);
    // The owner's correct password from a new address works on its first try.
    expect((await login(app, OWNER, PASSWORD, '10.63.0.9')).statusCode).toBe(200);
  });
});
