export * from './account-errors.ts';
export * from './client-secrets.ts';
export * from './identity-sequences.ts';
export * from './lookups.ts';
export {
  OAUTH_GRANT_TYPES,
  OAUTH_SCOPES,
  assertRedirectUri,
  createOAuthClient,
  redirectUriProblem,
  validateOAuthClientInput,
  type CreateOAuthClientOptions,
  type CreatedOAuthClient,
  type OAuthClientInput,
  type OAuthClientSettings,
  type OAuthGrantType,
  type OAuthScope,
} from './oauth-clients.service.ts';
export * from './regions.service.ts';
export * from './users.service.ts';
