import { Writable } from 'node:stream';
import { DEMO_REDIRECT_URI, DemoClientId } from '@foodshare/domain';
import { type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import {
  allowOnConsentPage,
  authorizeUrl,
  callbackParams,
  formBody,
  pkcePair,
} from '../test-support/authorization-helpers.ts';
import type { TokenResponse } from '../test-support/token-helpers.ts';
import type { AuditEvent } from './audit.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';

let logged: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});
test.override('appEnv', { scope: 'file' }, { LOG_LEVEL: 'info' });
test.override('appShared', { scope: 'file' }, { logStream });

/**
 * The audit trail and the counters as the endpoints write them: the real app logs into a stream
 * this test reads (pino's JSON lines, after redaction), and /metrics is scraped as Prometheus
 * would. Nothing is called directly.
 */
describe('audit events and counters of the protocol endpoints', () => {
  let alice: SignedInClient;

  test.beforeEach(async ({ signIn, services }) => {
    alice = await signIn(ids.users.alice);
    await services.consents.revoke(ids.users.alice, DemoClientId.public);
    logged = [];
  });

  type AuditLine = Record<string, unknown> & { audit: AuditEvent; msg: string; reqId: string };

  function auditLines(event: AuditEvent): AuditLine[] {
    return logged
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line): line is AuditLine => line.audit === event);
  }

  /** The one line of the event since the test began; fails on none or several. */
  function theAuditLine(event: AuditEvent): AuditLine {
    const lines = auditLines(event);
    expect(lines, `audit lines of ${event}`).toHaveLength(1);
    return lines[0]!;
  }

  async function metric(app: AuthApp, series: string): Promise<number> {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    const line = response.body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  }

  const tokensIssued = (app: AuthApp, grant: string) =>
    metric(app, `oauth_tokens_issued_total{grant="${grant}",client="${DemoClientId.public}"}`);
  const errors = (app: AuthApp, code: string) => metric(app, `oauth_errors_total{code="${code}"}`);

  /** Alice authorizes demo-public on the pages (remembering consent); the code and verifier. */
  async function authorize(app: AuthApp): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const start = await app.inject({
      method: 'GET',
      url: authorizeUrl({ code_challenge: challenge, scope: 'openid profile email' }),
      cookies: alice.cookies,
    });
    const decided = await allowOnConsentPage(app, alice.cookies, start, { remember: true });
    return { code: callbackParams(decided).get('code') ?? '', verifier };
  }

  const redeem = (app: AuthApp, code: string, verifier: string) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      ...formBody({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        client_id: DemoClientId.public,
        code_verifier: verifier,
      }),
    });

  const refresh = (app: AuthApp, refreshToken: string) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      ...formBody({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: DemoClientId.public,
      }),
    });

  it('audits code_issued, code_redeemed and tokens_issued, and counts the tokens by grant', async ({
    app,
  }) => {
    const issuedBefore = await tokensIssued(app, 'authorization_code');
    const { code, verifier } = await authorize(app);
    const response = await redeem(app, code, verifier);
    expect(response.statusCode).toBe(200);
    const tokens = response.json<TokenResponse>();

    const userId = ids.users.alice;
    expect(theAuditLine('code_issued')).toMatchObject({ clientId: DemoClientId.public, userId });
    const redeemed = theAuditLine('code_redeemed');
    expect(redeemed).toMatchObject({ clientId: DemoClientId.public, userId });
    const issued = theAuditLine('tokens_issued');
    expect(issued).toMatchObject({
      clientId: DemoClientId.public,
      userId,
      familyId: expect.any(String),
      scope: 'openid profile email',
    });
    // One request: the token endpoint's events carry its request id.
    expect(issued.reqId).toBe(redeemed.reqId);
    expect(await tokensIssued(app, 'authorization_code')).toBe(issuedBefore + 1);
    // An audit trail is no place for credentials.
    const everything = logged.join('\n');
    for (const secret of [code, verifier, tokens.access_token, tokens.refresh_token!]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('audits device_approved, device_code_redeemed and tokens_issued, and counts the device grant', async ({
    app,
  }) => {
    const grant = 'urn:ietf:params:oauth:grant-type:device_code';
    const issuedBefore = await tokensIssued(app, grant);
    const started = (
      await app.inject({
        method: 'POST',
        url: '/oauth/device_authorization',
        ...formBody({ client_id: DemoClientId.public, scope: 'openid' }),
      })
    ).json<{ device_code: string; user_code: string }>();
    const entered = await app.inject({
      method: 'POST',
      url: '/oauth/device',
      cookies: alice.cookies,
      ...formBody({ user_code: started.user_code, csrf: alice.headers['x-csrf-token'] }),
    });
    await allowOnConsentPage(app, alice.cookies, entered);
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      ...formBody({
        grant_type: grant,
        device_code: started.device_code,
        client_id: DemoClientId.public,
      }),
    });
    expect(response.statusCode).toBe(200);

    const userId = ids.users.alice;
    expect(theAuditLine('device_approved')).toMatchObject({
      clientId: DemoClientId.public,
      userId,
      scopes: ['openid'],
    });
    const redeemed = theAuditLine('device_code_redeemed');
    expect(redeemed).toMatchObject({ clientId: DemoClientId.public, userId });
    expect(theAuditLine('tokens_issued').reqId).toBe(redeemed.reqId);
    expect(await tokensIssued(app, grant)).toBe(issuedBefore + 1);
    const everything = logged.join('\n');
    const { access_token: accessToken } = response.json<TokenResponse>();
    for (const secret of [started.device_code, started.user_code, accessToken]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('audits tokens_refreshed and counts it as a refresh_token grant', async ({ app }) => {
    const { code, verifier } = await authorize(app);
    const first = (await redeem(app, code, verifier)).json<TokenResponse>();
    const refreshedBefore = await tokensIssued(app, 'refresh_token');
    expect((await refresh(app, first.refresh_token!)).statusCode).toBe(200);
    expect(theAuditLine('tokens_refreshed')).toMatchObject({
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      scope: 'openid profile email',
    });
    expect(await tokensIssued(app, 'refresh_token')).toBe(refreshedBefore + 1);
  });

  it('audits refresh_reuse_detected for an old refresh token and counts invalid_grant', async ({
    app,
  }) => {
    const { code, verifier } = await authorize(app);
    const first = (await redeem(app, code, verifier)).json<TokenResponse>();
    expect((await refresh(app, first.refresh_token!)).statusCode).toBe(200);
    const invalidGrantsBefore = await errors(app, 'invalid_grant');
    expect((await refresh(app, first.refresh_token!)).statusCode).toBe(400);
    expect(theAuditLine('refresh_reuse_detected')).toMatchObject({
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      familyId: expect.any(String),
    });
    expect(await errors(app, 'invalid_grant')).toBe(invalidGrantsBefore + 1);
  });

  it('audits code_reused for a second use of a code and counts invalid_grant', async ({ app }) => {
    const { code, verifier } = await authorize(app);
    expect((await redeem(app, code, verifier)).statusCode).toBe(200);
    const issued = theAuditLine('tokens_issued');
    const invalidGrantsBefore = await errors(app, 'invalid_grant');
    expect((await redeem(app, code, verifier)).statusCode).toBe(400);
    expect(theAuditLine('code_reused')).toMatchObject({
      clientId: DemoClientId.public,
      familyId: issued.familyId,
    });
    expect(await errors(app, 'invalid_grant')).toBe(invalidGrantsBefore + 1);
  });

  it('audits tokens_revoked at the revocation endpoint', async ({ app }) => {
    const { code, verifier } = await authorize(app);
    const tokens = (await redeem(app, code, verifier)).json<TokenResponse>();
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      ...formBody({ token: tokens.refresh_token!, client_id: DemoClientId.public }),
    });
    expect(response.statusCode).toBe(200);
    expect(theAuditLine('tokens_revoked')).toMatchObject({ clientId: DemoClientId.public });
  });

  it('audits tokens_revoked when a refresh finds the grant no longer holds', async ({ app }) => {
    const { code, verifier } = await authorize(app);
    const tokens = (await redeem(app, code, verifier)).json<TokenResponse>();
    await app.orm.em
      .fork()
      .execute('update region_memberships set active = false where user_id = ?', [ids.users.alice]);
    try {
      expect((await refresh(app, tokens.refresh_token!)).statusCode).toBe(400);
    } finally {
      await app.orm.em
        .fork()
        .execute('update region_memberships set active = true where user_id = ?', [
          ids.users.alice,
        ]);
    }
    expect(theAuditLine('tokens_revoked')).toMatchObject({
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      reason: expect.any(String),
    });
  });

  it('audits consent_revoked when the user revokes a connected app', async ({ app }) => {
    await authorize(app);
    const response = await app.inject({
      method: 'POST',
      url: `/connected-apps/${DemoClientId.public}/revoke`,
      cookies: alice.cookies,
      ...formBody({ csrf: alice.headers['x-csrf-token'] }),
    });
    expect(response.statusCode).toBe(303);
    expect(theAuditLine('consent_revoked')).toMatchObject({
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      hadConsent: true,
    });
  });

  it('counts the "Invalid redirect_uri" page in oauth_errors_total', async ({ app }) => {
    const before = await errors(app, 'invalid_request');
    const requests: Record<string, string>[] = [
      { redirect_uri: 'https://attacker.example/callback' },
      { client_id: 'no-such-client' },
    ];
    for (const overrides of requests) {
      const response = await app.inject({
        method: 'GET',
        url: authorizeUrl(overrides),
        cookies: alice.cookies,
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('Invalid redirect_uri');
    }
    expect(await errors(app, 'invalid_request')).toBe(before + 2);
  });
});
