import { createOAuthClient, type EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import {
  backchannelLogoutAllowedHostsOf,
  clientSecretPepper,
  withEntityManager,
} from '../../cli-context.ts';
import {
  collect,
  collectIds,
  collectList,
  leafCommand,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { displayUriLines, protocolOptionLines } from './client-lines.ts';
import { clientSummary, type ClientSummary, type CreateClientOptions } from './client-settings.ts';
import {
  displayUrisOf,
  withDisplayUriOptions,
  type DisplayUriFlags,
} from './display-uri-options.ts';

export async function createClientCommand(
  em: EntityManager,
  options: CreateClientOptions,
): Promise<ClientSummary> {
  const { pepper, backchannelLogoutAllowedHosts, ...input } = options;
  const { client, secret } = await createOAuthClient(em, input, {
    pepper,
    backchannelLogoutAllowedHosts,
  });
  return clientSummary(client, secret);
}

function describeClient(client: ClientSummary): string {
  const lines = [
    `Created ${client.confidential ? 'confidential' : 'public'} client ${client.clientId} "${client.name}".`,
    `  redirect URIs: ${client.redirectUris.join(' ')}`,
    `  post-logout redirect URIs: ${client.postLogoutRedirectUris.length > 0 ? client.postLogoutRedirectUris.join(' ') : 'none'}`,
    ...protocolOptionLines(client),
    ...displayUriLines(client),
    `  scopes: ${client.scopes.join(' ')}`,
    `  grant types: ${client.grantTypes.join(' ')}`,
    `  required regions: ${client.requiredRegionIds.length > 0 ? client.requiredRegionIds.join(' ') : 'none (every user)'}`,
  ];
  if (client.secret !== null) {
    lines.push(
      '',
      `Client secret: ${client.secret}`,
      'It is shown this once and stored only as a hash: keep it now.',
    );
  }
  return lines.join('\n');
}

interface CreateClientFlags extends JsonFlag, DisplayUriFlags {
  clientId: string;
  name: string;
  confidential?: boolean;
  redirectUri: string[];
  postLogoutRedirectUri?: string[];
  requirePar?: boolean;
  requireDpop?: boolean;
  backchannelLogoutUri?: string;
  scope?: string[];
  grant?: string[];
  requiredRegion?: number[];
}

/** `clients create`. */
export function createClientLeaf(runtime: CliRuntime): Command {
  return withDisplayUriOptions(
    leafCommand('create', 'register an OAuth client')
      .requiredOption('--client-id <clientId>', 'unique id: letters, digits and . _ ~ -')
      .requiredOption('--name <name>', 'shown to users on the consent screen')
      .option(
        '--confidential',
        'a server application holding a secret (generated and printed once); without it the client is public and must use PKCE',
      )
      .requiredOption(
        '--redirect-uri <uri>',
        "exact callback URL, repeatable: https, or http on a loopback host (any port matches there); a public client may also use a native app's own scheme named by a reverse domain (org.example.app:/oauth2redirect); no fragment, no wildcard",
        collect,
      )
      .option(
        '--post-logout-redirect-uri <uri>',
        'where RP-Initiated Logout may send users back, exact, repeatable, same rules as --redirect-uri (default: none)',
        collect,
      )
      .option(
        '--require-par',
        'refuse authorization requests not pushed to /oauth/par first (RFC 9126)',
      )
      .option('--require-dpop', 'refuse token requests without a DPoP proof (RFC 9449)')
      .option(
        '--backchannel-logout-uri <uri>',
        'where logout tokens are POSTed (OpenID Connect Back-Channel Logout): https to a public host, no private address or internal name (default: none)',
      ),
    false,
  )
    .option(
      '--scope <scope>',
      'openid (required), profile, email, regions, api (the REST API); repeatable (default: openid)',
      collectList,
    )
    .option(
      '--grant <grantType>',
      'authorization_code (required), refresh_token, urn:ietf:params:oauth:grant-type:device_code; repeatable (default: authorization_code)',
      collectList,
    )
    .option(
      '--required-region <regionId>',
      'only members of this region may use the client; repeatable (default: everybody)',
      collectIds,
    )
    .action((flags: CreateClientFlags) =>
      runCommand(
        runtime,
        flags,
        () => {
          const confidential = flags.confidential ?? false;
          // A public client has no secret, so it needs no pepper even in production.
          const pepper = confidential ? clientSecretPepper(runtime.env) : '';
          // No announcement (withClientChange): no auth instance holds a row of a new client.
          return withEntityManager(runtime.env, (em) =>
            createClientCommand(em, {
              clientId: flags.clientId,
              name: flags.name,
              confidential,
              redirectUris: flags.redirectUri,
              postLogoutRedirectUris: flags.postLogoutRedirectUri ?? [],
              requirePushedAuthorizationRequests: flags.requirePar ?? false,
              requireDpop: flags.requireDpop ?? false,
              backchannelLogoutUri: flags.backchannelLogoutUri ?? null,
              ...displayUrisOf(flags),
              scopes: flags.scope ?? ['openid'],
              grantTypes: flags.grant ?? ['authorization_code'],
              requiredRegionIds: flags.requiredRegion ?? [],
              pepper,
              backchannelLogoutAllowedHosts: backchannelLogoutAllowedHostsOf(runtime.env),
            }),
          );
        },
        describeClient,
      ),
    );
}
