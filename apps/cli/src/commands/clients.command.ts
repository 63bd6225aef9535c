import { createOAuthClient, type EntityManager } from '@foodshare/domain';
import { Command } from 'commander';
import { clientSecretPepper, withEntityManager } from '../cli-context.ts';
import {
  collect,
  collectIds,
  collectList,
  leafCommand,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';

export interface CreateClientOptions {
  clientId: string;
  name: string;
  confidential: boolean;
  redirectUris: string[];
  scopes: string[];
  grantTypes: string[];
  requiredRegionIds: number[];
  /** CLIENT_SECRET_PEPPER of the auth service. */
  pepper: string;
}

export interface ClientSummary extends Omit<CreateClientOptions, 'pepper'> {
  id: number;
  /** In clear, this once; null for a public client. */
  secret: string | null;
}

export async function createClientCommand(
  em: EntityManager,
  options: CreateClientOptions,
): Promise<ClientSummary> {
  const { pepper, ...input } = options;
  const { client, secret } = await createOAuthClient(em, input, { pepper });
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    confidential: client.confidential,
    redirectUris: client.redirectUris,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    requiredRegionIds: client.requiredRegionIds,
    secret,
  };
}

function describeClient(client: ClientSummary): string {
  const lines = [
    `Created ${client.confidential ? 'confidential' : 'public'} client ${client.clientId} "${client.name}".`,
    `  redirect URIs: ${client.redirectUris.join(' ')}`,
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

interface CreateClientFlags extends JsonFlag {
  clientId: string;
  name: string;
  confidential?: boolean;
  redirectUri: string[];
  scope?: string[];
  grant?: string[];
  requiredRegion?: number[];
}

export function clientsCommands(runtime: CliRuntime): Command {
  const clients = new Command('clients').description('OAuth clients of the authorization server');

  clients.addCommand(
    leafCommand('create', 'register an OAuth client')
      .requiredOption('--client-id <clientId>', 'unique id: letters, digits and . _ ~ -')
      .requiredOption('--name <name>', 'shown to users on the consent screen')
      .option(
        '--confidential',
        'a server application holding a secret (generated and printed once); without it the client is public and must use PKCE',
      )
      .requiredOption(
        '--redirect-uri <uri>',
        'exact callback URL, repeatable: https, or http on a loopback host; no fragment, no wildcard',
        collect,
      )
      .option(
        '--scope <scope>',
        'openid (required), profile, email, regions; repeatable (default: openid)',
        collectList,
      )
      .option(
        '--grant <grantType>',
        'authorization_code (required), refresh_token; repeatable (default: authorization_code)',
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
            return withEntityManager(runtime.env, (em) =>
              createClientCommand(em, {
                clientId: flags.clientId,
                name: flags.name,
                confidential,
                redirectUris: flags.redirectUri,
                scopes: flags.scope ?? ['openid'],
                grantTypes: flags.grant ?? ['authorization_code'],
                requiredRegionIds: flags.requiredRegion ?? [],
                pepper,
              }),
            );
          },
          describeClient,
        ),
      ),
  );

  return clients;
}
