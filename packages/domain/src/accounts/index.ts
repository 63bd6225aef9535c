export * from './account-errors.ts';
export * from './backchannel-logout-uri.ts';
export * from './client-display-uris.ts';
export * from './client-secrets.ts';
export * from './identity-sequences.ts';
export * from './lookups.ts';
export * from './oauth-client-admin.service.ts';
export * from './oauth-token-revocation.ts';
export {
  OAUTH_CLIENT_LIMITS,
  OAUTH_GRANT_TYPES,
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
} from './oauth-clients.service.ts';
export * from './redirect-uri-match.ts';
export * from './region-admin.service.ts';
export * from './regions.service.ts';
export * from './users.service.ts';
