import { servicesOf } from '../../test-support/build-test-app.ts';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { Value } from 'typebox/value';
import type { AuthApp } from '../../app.ts';
import { ProviderMetadataSchema } from './provider-metadata.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';

const ISSUER = 'https://foodshare.example.org';
test.override('appEnv', { scope: 'file' }, { BASE_URL: ISSUER });
const WELL_KNOWNS = [
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
] as const;

const get = (app: AuthApp, url: string) => app.inject({ method: 'GET', url });

describe('provider metadata', () => {
  it.for(WELL_KNOWNS)('%s advertises exactly what is enforced', async (url, { app }) => {
    const response = await get(app, url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body: unknown = response.json();
    expect(Value.Check(ProviderMetadataSchema, body)).toBe(true);
    expect(body).toEqual({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/oauth/token`,
      userinfo_endpoint: `${ISSUER}/oauth/userinfo`,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      introspection_endpoint: `${ISSUER}/oauth/introspect`,
      end_session_endpoint: `${ISSUER}/oauth/logout`,
      pushed_authorization_request_endpoint: `${ISSUER}/oauth/par`,
      require_pushed_authorization_requests: false,
      device_authorization_endpoint: `${ISSUER}/oauth/device_authorization`,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'profile', 'email', 'regions', 'api', 'offline_access'],
      claims_supported: [
        'sub',
        'preferred_username',
        'name',
        'given_name',
        'family_name',
        'picture',
        'locale',
        'email',
        'email_verified',
        'region_ids',
        'region_ambassador',
        'groups',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'at_hash',
        'azp',
        'sid',
      ],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'none',
      ],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      dpop_signing_alg_values_supported: ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA', 'Ed25519'],
      prompt_values_supported: ['none', 'login', 'consent'],
      authorization_response_iss_parameter_supported: true,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
    });
  });

  it('serves the same document at both well-known addresses (RFC 8414)', async ({ app }) => {
    const [oidc, rfc8414] = await Promise.all(WELL_KNOWNS.map((url) => get(app, url)));
    expect(oidc?.body).toBe(rfc8414?.body);
  });

  it.for(WELL_KNOWNS)('%s may be read from any origin and cached briefly', async (url, { app }) => {
    const response = await get(app, url);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
  });

  it('names an issuer byte-identical to the discovery URL prefix and to every token iss', async ({
    app,
  }) => {
    const { issuer } = (await get(app, WELL_KNOWNS[0])).json<{ issuer: string }>();
    expect(issuer).toBe(ISSUER);
    expect(`${issuer}/.well-known/openid-configuration`).toBe(`${ISSUER}${WELL_KNOWNS[0]}`);
    const token = await servicesOf(app).keys.signJwt({ exp: Math.floor(Date.now() / 1000) + 60 });
    expect(decodeJwt(token).iss).toBe(issuer);
  });

  it('satisfies a certified relying-party library (openid-client discovery)', async ({ app }) => {
    const config = await client.discovery(new URL(ISSUER), 'demo-public', undefined, undefined, {
      [client.customFetch]: async (url, options) => {
        const response = await app.inject({
          method: options.method as 'GET',
          url: new URL(url).pathname,
          headers: options.headers,
        });
        return new Response(response.body, {
          status: response.statusCode,
          headers: response.headers as Record<string, string>,
        });
      },
    });
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(ISSUER);
    expect(metadata.supportsPKCE()).toBe(true);
  });
});
