import {
  AccountError,
  OAuthClientEntity,
  type EntityManager,
  type OAuthClientInput,
  type StoredOAuthClientSettings,
} from '@foodshare/domain';

/** The settings of `clients create` (a new client is active) and what the auth service is told. */
export type CreateClientOptions = Omit<OAuthClientInput, 'active'> & {
  /** CLIENT_SECRET_PEPPER of the auth service. */
  pepper: string;
  /** BACKCHANNEL_LOGOUT_ALLOWED_HOSTS of the auth service, parsed; default none. */
  backchannelLogoutAllowedHosts?: readonly string[];
};

export type ClientSummary = Omit<StoredOAuthClientSettings, 'active'> & {
  /** In clear, this once; null for a public client. */
  secret: string | null;
};

export function clientSummary(client: OAuthClientEntity, secret: string | null): ClientSummary {
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    confidential: client.confidential,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    requireDpop: client.requireDpop,
    backchannelLogoutUri: client.backchannelLogoutUri ?? null,
    logoUri: client.logoUri ?? null,
    clientUri: client.clientUri ?? null,
    policyUri: client.policyUri ?? null,
    tosUri: client.tosUri ?? null,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    requiredRegionIds: client.requiredRegionIds,
    secret,
  };
}

export type ClientDetails = Omit<ClientSummary, 'secret'> & {
  active: boolean;
  /** Until when the secret replaced by the last rotation still works; null when none does. */
  previousSecretValidUntil: string | null;
};

export function clientDetails(client: OAuthClientEntity, now = new Date()): ClientDetails {
  const { secret: _secret, ...settings } = clientSummary(client, null);
  const until = client.previousSecretExpiresAt;
  return {
    ...settings,
    active: client.active,
    previousSecretValidUntil: until && until > now ? until.toISOString() : null,
  };
}

export async function requireClient(
  em: EntityManager,
  clientId: string,
): Promise<OAuthClientEntity> {
  const client = await em.findOne(OAuthClientEntity, { clientId });
  if (!client)
    throw new AccountError('CLIENT_NOT_FOUND', `No OAuth client has the client id ${clientId}`);
  return client;
}
