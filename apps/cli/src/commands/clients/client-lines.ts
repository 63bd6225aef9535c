import type { ClientDetails, ClientSummary } from './client-settings.ts';

/** What the consent page shows of the client, one line each. */
export function displayUriLines(client: Omit<ClientSummary, 'secret'>): string[] {
  return [
    `  logo URI: ${client.logoUri ?? 'none'}`,
    `  home page URI: ${client.clientUri ?? 'none'}`,
    `  privacy policy URI: ${client.policyUri ?? 'none'}`,
    `  terms of service URI: ${client.tosUri ?? 'none'}`,
  ];
}

export function protocolOptionLines(client: ClientSummary): string[] {
  return [
    `  pushed authorization requests: ${client.requirePushedAuthorizationRequests ? 'required' : 'optional'}`,
    `  DPoP proofs: ${client.requireDpop ? 'required' : 'optional'}`,
    `  back-channel logout URI: ${client.backchannelLogoutUri ?? 'none'}`,
  ];
}

/** A client as `clients list`, `show` and `update` print it. */
export function describeDetails(client: ClientDetails): string {
  return [
    `${client.clientId} "${client.name}": ${client.confidential ? 'confidential' : 'public'}, ${client.active ? 'active' : 'deactivated'}`,
    `  redirect URIs: ${client.redirectUris.join(' ')}`,
    `  post-logout redirect URIs: ${client.postLogoutRedirectUris.join(' ') || 'none'}`,
    `  scopes: ${client.scopes.join(' ')}`,
    `  grant types: ${client.grantTypes.join(' ')}`,
    `  required regions: ${client.requiredRegionIds.join(' ') || 'none (every user)'}`,
    ...displayUriLines(client),
    ...(client.previousSecretValidUntil
      ? [`  previous secret valid until ${client.previousSecretValidUntil}`]
      : []),
  ].join('\n');
}

/** A new secret, printed this once. */
export function secretLines(secret: string): string[] {
  return [
    '',
    `Client secret: ${secret}`,
    'It is shown this once and stored only as a hash: keep it now.',
  ];
}
