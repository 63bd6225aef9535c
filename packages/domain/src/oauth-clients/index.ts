// OAuth clients: the rules of their settings and the services that change them, for the auth
// app's admin page and the CLI alike (docs/design.md §7.1).
export * from './backchannel-logout-uri.ts';
export * from './client-display-uris.ts';
export * from './client-secrets.ts';
export * from './oauth-client-admin.service.ts';
export * from './oauth-token-revocation.ts';
export {
  OAUTH_CLIENT_LIMITS,
  OAUTH_GRANT_TYPES,
  DEVICE_CODE_GRANT_TYPE,
  OAUTH_SCOPES,
  assertRedirectUri,
  createOAuthClient,
  redirectUriProblem,
  redirectUriProblemCode,
  validateOAuthClientInput,
  type CreateOAuthClientOptions,
  type CreatedOAuthClient,
  type OAuthClientInput,
  type OAuthClientSettings,
  type OAuthClientValidationOptions,
  type RedirectUriProblemCode,
  type StoredOAuthClientSettings,
} from './oauth-clients.service.ts';
export * from './redirect-uri-match.ts';
