import { DEVICE_CODE_GRANT_TYPE } from '@foodshare/domain';
import { Type, type Static } from 'typebox';
import { DPOP_SIGNING_ALGORITHMS } from '@foodshare/server-kit/oauth-grants';

const Strings = Type.Array(Type.String());

/** OpenID Connect Discovery 1.0 section 3 / RFC 8414 section 2, as far as this server goes. */
export const ProviderMetadataSchema = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    userinfo_endpoint: Type.String(),
    jwks_uri: Type.String(),
    revocation_endpoint: Type.String(),
    introspection_endpoint: Type.String(),
    end_session_endpoint: Type.String(),
    pushed_authorization_request_endpoint: Type.String(),
    device_authorization_endpoint: Type.String(),
    require_pushed_authorization_requests: Type.Boolean(),
    backchannel_logout_supported: Type.Boolean(),
    backchannel_logout_session_supported: Type.Boolean(),
    response_types_supported: Strings,
    response_modes_supported: Strings,
    grant_types_supported: Strings,
    subject_types_supported: Strings,
    id_token_signing_alg_values_supported: Strings,
    scopes_supported: Strings,
    claims_supported: Strings,
    token_endpoint_auth_methods_supported: Strings,
    revocation_endpoint_auth_methods_supported: Strings,
    introspection_endpoint_auth_methods_supported: Strings,
    code_challenge_methods_supported: Strings,
    dpop_signing_alg_values_supported: Strings,
    prompt_values_supported: Strings,
    authorization_response_iss_parameter_supported: Type.Boolean(),
    request_parameter_supported: Type.Boolean(),
    request_uri_parameter_supported: Type.Boolean(),
    claims_parameter_supported: Type.Boolean(),
  },
  { additionalProperties: false },
);

export type ProviderMetadata = Static<typeof ProviderMetadataSchema>;

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];
// Introspection answers confidential clients only (docs/oauth.md §6.8).
const CONFIDENTIAL_CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

/**
 * What this server enforces, and nothing more: clients change behaviour on every field (a
 * `plain` PKCE method or an implicit response type advertised here would be used). Booleans
 * whose default is true (request_uri_parameter_supported, OIDC Discovery 3) are stated false.
 */
export function providerMetadata(issuer: string): ProviderMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    // OpenID Connect RP-Initiated Logout 1.0 §2.1 (docs/oauth.md §7).
    end_session_endpoint: `${issuer}/oauth/logout`,
    // RFC 9126 5 (docs/oauth.md §8). Not required of every client: a client's registration may
    // require it of that client alone (require_pushed_authorization_requests in RFC 9126 6).
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    require_pushed_authorization_requests: false,
    // RFC 8628 4 (docs/oauth.md §12).
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    // Back-Channel Logout 1.0 §2.1 (docs/oauth.md §9): ID tokens and logout tokens carry the
    // session's `sid` (docs/oauth.md §4.4).
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT_TYPE],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    // offline_access: OIDC Core 11 (docs/oauth.md §3.8); api: the REST API (§11).
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
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_methods_supported: CONFIDENTIAL_CLIENT_AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    // RFC 9449 5.1: proofs bind tokens at the token endpoint and are checked at userinfo.
    dpop_signing_alg_values_supported: DPOP_SIGNING_ALGORITHMS,
    prompt_values_supported: ['none', 'login', 'consent'],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    // About request objects fetched by reference (OIDC Core 6.2), which this server does not
    // do; the request_uri of a pushed request is a different thing (RFC 9126 4).
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
  };
}
