import { servicesOf } from './build-test-app.ts';
import { randomBytes } from 'node:crypto';
import {
  createOAuthClient,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  hashClientSecret,
  type OAuthClientInput,
} from '@foodshare/domain';
import { expect } from 'vitest';
import type { AuthApp } from '../app.ts';
import { type AuthorizationCodeGrant, codeKey } from '@foodshare/server-kit/oauth-grants';
import type { TokenResponse } from '../endpoints/token/issue-tokens.ts';
import { pkcePair } from './authorization-helpers.ts';
import { backchannelLogoutAllowedHosts } from '../config.ts';

/**
 * Helpers of the tests that need tokens: codes without the authorize endpoint, token,
 * refresh and userinfo requests, and tokens issued straight from a family.
 */

export { DEMO_CLIENT_SECRET, DEMO_REDIRECT_URI, DemoClientId, pkcePair };
export {
  issueTokens,
  planAccessToken,
  type TokenResponse,
} from '../endpoints/token/issue-tokens.ts';

export const ALL_SCOPES = ['openid', 'profile', 'email', 'regions'];

export interface CodeOptions {
  clientId: string;
  userId: number;
  scopes?: string[];
  redirectUri?: string;
  /** null: a code issued without PKCE. */
  codeChallenge?: string | null;
  nonce?: string | null;
  authTime?: number;
  /** The login session's sid the code carries (absent: a code of an earlier release). */
  sid?: string;
}

function codeGrant(options: CodeOptions): Omit<AuthorizationCodeGrant, 'issuedAt'> {
  return {
    clientId: options.clientId,
    userId: options.userId,
    redirectUri: options.redirectUri ?? DEMO_REDIRECT_URI,
    scopes: options.scopes ?? ALL_SCOPES,
    codeChallenge: options.codeChallenge ?? null,
    nonce: options.nonce ?? null,
    authTime: options.authTime ?? Math.floor(Date.now() / 1000) - 60,
    ...(options.sid === undefined ? {} : { sid: options.sid }),
  };
}

/** A code as /oauth/authorize would issue it. */
export function issueCode(app: AuthApp, options: CodeOptions): Promise<string> {
  return servicesOf(app).codes.issue(codeGrant(options));
}

/** A code issued `ageMs` ago: an expired code without waiting for one to expire. */
export async function issueAgedCode(
  app: AuthApp,
  options: CodeOptions,
  ageMs: number,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const record: AuthorizationCodeGrant = { ...codeGrant(options), issuedAt: Date.now() - ageMs };
  await app.kv.set(codeKey(code), JSON.stringify(record), 60_000);
  return code;
}

/** RFC 6749 2.3.1: each part form-url-encoded, then joined and base64-encoded. */
export function basicAuth(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

export const confidentialBasic = () => basicAuth(DemoClientId.confidential, DEMO_CLIENT_SECRET);

export function postForm(
  app: AuthApp,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/**
 * A form endpoint where a client authenticates with the token it names (revocation,
 * introspection: clients/client-endpoint.ts). `post` sends fields form-encoded; `postRaw` a
 * form body as written (a parameter sent twice); `postJson` the fields as JSON, which such an
 * endpoint refuses (RFC 6749 3.2).
 */
export function clientFormEndpoint(app: AuthApp, url: string) {
  return {
    post: (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      postForm(app, url, fields, headers),
    postRaw: (payload: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload,
      }),
    postJson: (payload: Record<string, string>, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, headers, payload }),
  };
}

/**
 * That the endpoint refuses a confidential client's wrong secret (with the Basic challenge it
 * was sent by) and a request without credentials, each with 401 invalid_client.
 */
export async function expectClientCredentialsRequired(
  endpoint: ReturnType<typeof clientFormEndpoint>,
): Promise<void> {
  const wrong = await endpoint.post(
    { token: 'whatever' },
    { authorization: basicAuth(DemoClientId.confidential, 'wrong') },
  );
  expect(wrong.statusCode).toBe(401);
  expect(wrong.json()).toMatchObject({ error: 'invalid_client' });
  expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
  const anonymous = await endpoint.post({ token: 'whatever' });
  expect(anonymous.statusCode).toBe(401);
  expect(anonymous.json()).toMatchObject({ error: 'invalid_client' });
}

export const tokenRequest = (
  app: AuthApp,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) => postForm(app, '/oauth/token', fields, headers);

/** A full code exchange by demo-public with PKCE; the tokens, or the test fails. */
export async function tokensFor(
  app: AuthApp,
  options: Omit<CodeOptions, 'codeChallenge'>,
): Promise<TokenResponse> {
  const { verifier, challenge } = pkcePair();
  const code = await issueCode(app, { ...options, codeChallenge: challenge });
  const response = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: options.redirectUri ?? DEMO_REDIRECT_URI,
    code_verifier: verifier,
    client_id: options.clientId,
  });
  if (response.statusCode !== 200) {
    throw new Error(`token request failed: ${response.statusCode} ${response.body}`);
  }
  return response.json<TokenResponse>();
}

export function refreshRequest(
  app: AuthApp,
  clientId: string,
  refreshToken: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(app, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
    ...extra,
  });
}

export function userinfoRequest(app: AuthApp, accessToken: string) {
  return app.inject({
    method: 'GET',
    url: '/oauth/userinfo',
    headers: { authorization: `Bearer ${accessToken}` },
  });
}

/** A client of the test's own, with a secret the test chooses (special characters allowed). */
export async function registerTestClient(
  app: AuthApp,
  input: Partial<OAuthClientInput> & { clientId: string },
  secret?: string,
): Promise<void> {
  const em = app.orm.em.fork();
  const pepper = servicesOf(app).secrets.clientSecretPepper;
  await createOAuthClient(
    em,
    {
      name: input.clientId,
      confidential: secret !== undefined,
      redirectUris: [DEMO_REDIRECT_URI],
      scopes: ALL_SCOPES,
      grantTypes: ['authorization_code', 'refresh_token'],
      ...input,
    },
    {
      pepper,
      backchannelLogoutAllowedHosts: backchannelLogoutAllowedHosts(servicesOf(app).config),
    },
  );
  if (secret !== undefined) {
    await em.execute('update oauth_clients set secret_hash = ? where client_id = ?', [
      hashClientSecret(secret, pepper),
      input.clientId,
    ]);
  }
}
