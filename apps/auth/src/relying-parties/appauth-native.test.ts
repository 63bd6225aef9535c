import { createRequire } from 'node:module';
import { DemoUserEmail } from '@foodshare/domain';
import { freePort } from '@foodshare/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import { FormBrowser, signInOnOurPages, within } from './relying-party-harness.ts';

/**
 * A native app on AppAuth-JS (RFC 8252), the OpenID Foundation's library for native apps, in
 * Node: a public client whose NodeBasedHandler listens on a loopback port for the redirect, with
 * PKCE from its NodeCrypto, then BaseTokenRequestHandler redeems the code and refreshes. The
 * tokens are the app's proof: the ID token verifies against our keys, and the refreshed access
 * token reads userinfo.
 *
 * AppAuth 1.3.2: 1.4.0 is published as ES modules with extensionless relative imports, which
 * Node refuses to load (ERR_MODULE_NOT_FOUND); 1.3.2 is CommonJS and loads as it is.
 */

const CLIENT_ID = 'appauth-native-app';
const STEP_TIMEOUT_MS = 20_000;

// AppAuth opens the system browser with the `opener` package (xdg-open). Here the system browser
// is the test's own: the URL is handed to it instead, before AppAuth loads and takes `opener`.
let openSystemBrowser: (url: string) => void = () => {
  throw new Error('no browser yet');
};
const appauthRequire = createRequire(createRequire(import.meta.url).resolve('@openid/appauth'));
const openerPath = appauthRequire.resolve('opener');
appauthRequire(openerPath);
appauthRequire.cache[openerPath]!.exports = (url: string) => openSystemBrowser(url);
const appauth = await import('@openid/appauth');
// AppAuth logs by default, the PKCE verifier included: off, by the library's own flag.
appauth.setFlag('IS_LOG', false);
const { NodeBasedHandler, NodeCrypto, NodeRequestor } =
  await import('@openid/appauth/built/node_support/index.js');

const APP_SCHEME_CLIENT_ID = 'appauth-app-scheme';
const APP_SCHEME_REDIRECT = 'org.foodshare.test:/oauth2redirect';

/**
 * AppAuth's handler as the Android and iOS apps have it: the browser ends at the app's own
 * scheme (RFC 8252 §7.1), the system hands that URL to the app, and the handler completes the
 * request from it, checking its state. AppAuth-JS ships that handler for browsers only, so the
 * test gives the app's side here, on AppAuth's own base class and request URL.
 */
class AppSchemeHandler extends appauth.AuthorizationRequestHandler {
  #pending: InstanceType<typeof appauth.AuthorizationRequest> | null = null;
  #delivered: URL | null = null;
  readonly #open: (url: string) => void;

  constructor(open: (url: string) => void) {
    super(new appauth.BasicQueryStringUtils(), new NodeCrypto());
    this.#open = open;
  }

  performAuthorizationRequest(
    configuration: InstanceType<typeof appauth.AuthorizationServiceConfiguration>,
    request: InstanceType<typeof appauth.AuthorizationRequest>,
  ): void {
    this.#pending = request;
    // As AppAuth's own handlers: the PKCE challenge is made before the URL is built.
    void request
      .setupCodeVerifier()
      .then(() => this.#open(this.buildRequestUrl(configuration, request)));
  }

  /** The system delivers the URL the browser was sent to. */
  deliver(url: URL): Promise<void> {
    this.#delivered = url;
    return this.completeAuthorizationRequestIfPossible();
  }

  protected completeAuthorizationRequest() {
    const request = this.#pending;
    const url = this.#delivered;
    if (!request || !url) return Promise.resolve(null);
    const state = url.searchParams.get('state') ?? '';
    const code = url.searchParams.get('code');
    const failed = url.searchParams.get('error');
    if (state !== request.state || failed || !code) {
      const error = new appauth.AuthorizationError({ error: failed ?? 'state_mismatch', state });
      return Promise.resolve({ request, response: null, error });
    }
    return Promise.resolve({
      request,
      response: new appauth.AuthorizationResponse({ code, state }),
      error: null,
    });
  }
}

test.override('listen', { scope: 'file' }, true);

describe('AppAuth-JS as a native app (public client)', () => {
  let issuer: string;
  let port: number;
  let redirectUri: string;

  test.beforeAll(async ({ origin, registerClient }) => {
    issuer = origin;
    port = await freePort();
    redirectUri = `http://127.0.0.1:${port}/callback`;
    await registerClient({
      clientId: CLIENT_ID,
      // Registered without a port: the app listens where its OS put it (RFC 8252 §7.3).
      redirectUris: ['http://127.0.0.1/callback'],
    });
    await registerClient({
      clientId: APP_SCHEME_CLIENT_ID,
      redirectUris: [APP_SCHEME_REDIRECT],
    });
  });

  it('signs in through the loopback redirect, redeems the code with PKCE and refreshes', async () => {
    const requestor = new NodeRequestor();
    const configuration = await within(
      STEP_TIMEOUT_MS,
      'discovery',
      appauth.AuthorizationServiceConfiguration.fetchFromIssuer(issuer, requestor),
    );

    // The user's browser: signs in on our pages, then follows the redirect to the app's port.
    const browser = new FormBrowser(issuer);
    let browsing: Promise<{ authorizeUrl: URL; callback: URL; page: string }> | undefined;
    openSystemBrowser = (url) => {
      browsing = (async () => {
        const callback = await signInOnOurPages(browser, url, DemoUserEmail.alice);
        const page = await fetch(callback, { signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
        return { authorizeUrl: new URL(url), callback, page: await page.text() };
      })();
    };

    const handler = new NodeBasedHandler(port);
    const notifier = new appauth.AuthorizationNotifier();
    handler.setAuthorizationNotifier(notifier);
    const completed = new Promise<{
      request: InstanceType<typeof appauth.AuthorizationRequest>;
      response: InstanceType<typeof appauth.AuthorizationResponse> | null;
      error: InstanceType<typeof appauth.AuthorizationError> | null;
    }>((resolve) =>
      notifier.setAuthorizationListener((request, response, error) =>
        resolve({ request, response, error }),
      ),
    );
    const request = new appauth.AuthorizationRequest(
      {
        client_id: CLIENT_ID,
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        response_type: appauth.AuthorizationRequest.RESPONSE_TYPE_CODE,
      },
      new NodeCrypto(),
      true,
    );
    handler.performAuthorizationRequest(configuration, request);

    const { response, error } = await within(STEP_TIMEOUT_MS, 'the redirect to the app', completed);
    const seen = await within(STEP_TIMEOUT_MS, 'the browser', browsing!);
    expect(seen.authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(seen.callback.origin).toBe(`http://127.0.0.1:${port}`);
    expect(browser.pagesShown).toEqual(['login', 'consent']);
    expect(error).toBeNull();
    expect(response?.state).toBe(request.state);

    // The code exchange of a public client: no secret, the PKCE verifier AppAuth kept.
    const tokens = new appauth.BaseTokenRequestHandler(requestor);
    const issued = await within(
      STEP_TIMEOUT_MS,
      'the code exchange',
      tokens.performTokenRequest(
        configuration,
        new appauth.TokenRequest({
          client_id: CLIENT_ID,
          redirect_uri: redirectUri,
          grant_type: appauth.GRANT_TYPE_AUTHORIZATION_CODE,
          code: response!.code,
          extras: { code_verifier: request.internal!['code_verifier']! },
        }),
      ),
    );
    const subject = String(ids.users.alice);
    const { payload } = await jwtVerify(
      issued.idToken!,
      createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)),
      { issuer, audience: CLIENT_ID },
    );
    expect(payload.sub).toBe(subject);
    expect(issued.refreshToken).toBeTruthy();

    const refreshed = await within(
      STEP_TIMEOUT_MS,
      'the refresh',
      tokens.performTokenRequest(
        configuration,
        new appauth.TokenRequest({
          client_id: CLIENT_ID,
          redirect_uri: redirectUri,
          grant_type: appauth.GRANT_TYPE_REFRESH_TOKEN,
          refresh_token: issued.refreshToken!,
        }),
      ),
    );
    expect(refreshed.accessToken).not.toBe(issued.accessToken);
    const userinfo = await fetch(configuration.userInfoEndpoint!, {
      headers: { authorization: `Bearer ${refreshed.accessToken}` },
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toMatchObject({ sub: subject, email: DemoUserEmail.alice });
  });

  it("signs in through the app's own scheme, redeems the code with PKCE and refreshes", async () => {
    const requestor = new NodeRequestor();
    const configuration = await within(
      STEP_TIMEOUT_MS,
      'discovery',
      appauth.AuthorizationServiceConfiguration.fetchFromIssuer(issuer, requestor),
    );
    const browser = new FormBrowser(issuer);
    let openBrowser: (url: string) => void = () => undefined;
    const opened = new Promise<string>((resolve) => (openBrowser = resolve));
    const handler = new AppSchemeHandler((url) => openBrowser(url));
    const notifier = new appauth.AuthorizationNotifier();
    handler.setAuthorizationNotifier(notifier);
    const completed = new Promise<{
      response: InstanceType<typeof appauth.AuthorizationResponse> | null;
      error: InstanceType<typeof appauth.AuthorizationError> | null;
    }>((resolve) =>
      notifier.setAuthorizationListener((_request, response, error) =>
        resolve({ response, error }),
      ),
    );
    const request = new appauth.AuthorizationRequest(
      {
        client_id: APP_SCHEME_CLIENT_ID,
        redirect_uri: APP_SCHEME_REDIRECT,
        scope: 'openid profile email offline_access',
        response_type: appauth.AuthorizationRequest.RESPONSE_TYPE_CODE,
      },
      new NodeCrypto(),
      true,
    );
    handler.performAuthorizationRequest(configuration, request);

    // The browser ends at the app's scheme, with the code and state appended.
    const authorizeUrl = await within(STEP_TIMEOUT_MS, 'the browser opened', opened);
    const callback = await within(
      STEP_TIMEOUT_MS,
      'the browser',
      signInOnOurPages(browser, authorizeUrl, DemoUserEmail.alice),
    );
    expect(`${callback.protocol}${callback.pathname}`).toBe(APP_SCHEME_REDIRECT);
    expect(callback.searchParams.get('iss')).toBe(issuer);
    await handler.deliver(callback);
    const { response, error } = await within(STEP_TIMEOUT_MS, 'the app', completed);
    expect(error).toBeNull();

    const tokens = new appauth.BaseTokenRequestHandler(requestor);
    const issued = await within(
      STEP_TIMEOUT_MS,
      'the code exchange',
      tokens.performTokenRequest(
        configuration,
        new appauth.TokenRequest({
          client_id: APP_SCHEME_CLIENT_ID,
          redirect_uri: APP_SCHEME_REDIRECT,
          grant_type: appauth.GRANT_TYPE_AUTHORIZATION_CODE,
          code: response!.code,
          extras: { code_verifier: request.internal!['code_verifier']! },
        }),
      ),
    );
    expect(issued.scope?.split(' ')).toContain('offline_access');
    const { payload } = await jwtVerify(
      issued.idToken!,
      createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)),
      { issuer, audience: APP_SCHEME_CLIENT_ID },
    );
    expect(payload.email).toBe(DemoUserEmail.alice);

    const refreshed = await within(
      STEP_TIMEOUT_MS,
      'the refresh',
      tokens.performTokenRequest(
        configuration,
        new appauth.TokenRequest({
          client_id: APP_SCHEME_CLIENT_ID,
          redirect_uri: APP_SCHEME_REDIRECT,
          grant_type: appauth.GRANT_TYPE_REFRESH_TOKEN,
          refresh_token: issued.refreshToken!,
        }),
      ),
    );
    expect(refreshed.refreshToken).toBeTruthy();
    expect(refreshed.refreshToken).not.toBe(issued.refreshToken);
  });
});
