import type { AuthApp } from '../../app.ts';
import {
  basicAuth,
  clientFormEndpoint,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  pkcePair,
  tokenRequest,
  tokensFor,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it } from '../../test-support/fixtures.ts';

// Issue 31, finding 5: any confidential client learned the sub, scope and client of any token.
// The app runs with the default: no client introspects the tokens of every client.
describe('POST /oauth/introspect by a client that is no resource server', () => {
  const introspectAs = (app: AuthApp, clientId: string, secret: string, token: string) =>
    clientFormEndpoint(app, '/oauth/introspect').post(
      { token },
      { authorization: basicAuth(clientId, secret) },
    );

  it("answers inactive for another client's access and refresh tokens, and nothing more", async ({
    app,
  }) => {
    const tokens = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      const response = await introspectAs(
        app,
        DemoClientId.confidential,
        DEMO_CLIENT_SECRET,
        token,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ active: false });
    }
  });

  it('answers its own tokens in full', async ({ app, registerClient }) => {
    await registerClient({ clientId: 'introspect-own' }, 'own-secret');
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: 'introspect-own',
      userId: ids.users.bob,
      codeChallenge: challenge,
    });
    const exchanged = await tokenRequest(
      app,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: verifier,
      },
      { authorization: basicAuth('introspect-own', 'own-secret') },
    );
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const tokens = exchanged.json<{ access_token: string; refresh_token: string }>();
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const response = await introspectAs(app, 'introspect-own', 'own-secret', token);
      expect(response.json()).toMatchObject({
        active: true,
        client_id: 'introspect-own',
        sub: String(ids.users.bob),
      });
    }
    // And another confidential client hears nothing of them.
    const other = await introspectAs(
      app,
      DemoClientId.confidential,
      DEMO_CLIENT_SECRET,
      tokens.access_token,
    );
    expect(other.json()).toEqual({ active: false });
  });
});
