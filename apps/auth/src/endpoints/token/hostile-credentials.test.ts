import { Writable } from 'node:stream';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import type { AuthApp } from '../../app.ts';

const ERROR_LEVEL = 50;

/** A JWT whose header says what the test wants; the signature does not matter. */
function tokenWithHeader(header: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part(header)}.${part({ sub: '1', exp: 4_000_000_000 })}.${'A'.repeat(342)}`;
}

const logLines: { level: number }[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      logLines.push(JSON.parse(line) as { level: number });
    }
    done();
  },
});
test.override('appEnv', { scope: 'file' }, { LOG_LEVEL: 'info' });
test.override('appShared', { scope: 'file' }, { logStream });

/**
 * Credentials no client would send are refused as credentials (401), with no trace of the
 * server's internals, and are not logged as server errors.
 */
describe('hostile credentials at /oauth/token, /oauth/revoke, /oauth/introspect and /oauth/userinfo', () => {
  let nextAddress = 1;
  // Each case from an address of its own: malformed credentials count as failed ones.
  const postForm = (
    app: AuthApp,
    url: string,
    fields: Record<string, string>,
    authorization: string,
  ) =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress: `10.80.0.${nextAddress++}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
      payload: new URLSearchParams(fields).toString(),
    });

  const basic = (raw: string) => `Basic ${Buffer.from(raw, 'latin1').toString('base64')}`;

  it.for([
    ['a NUL client_id', 'Basic ADoA'],
    ['a NUL inside the client_id', basic('demo\u0000:secret')],
    ['an encoded NUL client_id', basic('%00:secret')],
    ['a NUL secret', basic('demo-confidential:%00')],
    ['a newline in the client_id', basic('demo%0A:secret')],
    ['an oversized client_id', basic(`${'c'.repeat(5000)}:secret`)],
  ] as const)('answers 401 invalid_client to %s', async ([_name, authorization], { app }) => {
    const errorsBefore = logLines.filter((line) => line.level >= ERROR_LEVEL).length;
    for (const [url, fields] of [
      ['/oauth/token', { grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://a/' }],
      ['/oauth/revoke', { token: 'x' }],
      ['/oauth/introspect', { token: 'x' }],
    ] as const) {
      const response = await postForm(app, url, fields, authorization);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_client' });
      expect(response.headers['www-authenticate']).toMatch(/^Basic /);
    }
    expect(logLines.filter((line) => line.level >= ERROR_LEVEL)).toHaveLength(errorsBefore);
  });

  it.for([
    ['a CR/LF kid', { alg: 'RS256', typ: 'at+jwt', kid: 'k\r\nSet-Cookie: x=1' }],
    ['a non-Latin-1 kid', { alg: 'RS256', typ: 'at+jwt', kid: 'ключ' }],
    ['a kid of control characters', { alg: 'RS256', typ: 'at+jwt', kid: '\u0000\u0007' }],
    ['a quoted kid', { alg: 'RS256', typ: 'at+jwt', kid: 'a", error="other' }],
  ] as const)(
    'answers 401 invalid_token to %s at userinfo, leaking nothing',
    async ([_name, header], { app }) => {
      const errorsBefore = logLines.filter((line) => line.level >= ERROR_LEVEL).length;
      const token = tokenWithHeader(header);
      for (const method of ['GET', 'POST'] as const) {
        const response = await app.inject({
          method,
          url: '/oauth/userinfo',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ error: 'invalid_token' });
        const challenge = response.headers['www-authenticate'];
        expect(challenge).toMatch(/^Bearer realm="oauth", error="invalid_token"/);
        expect(challenge).toMatch(/^[\x20-\x7e]*$/);
        expect(`${String(challenge)}${response.body}`).not.toMatch(/ERR_|Invalid character|ключ/);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      expect(logLines.filter((line) => line.level >= ERROR_LEVEL)).toHaveLength(errorsBefore);
    },
  );
});
