import {
  AccountError,
  createOAuthClient,
  OAuthClientEntity,
  updateOAuthClient,
  type EntityManager,
} from '@foodshare/domain';
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
  /** Where RP-Initiated Logout may return users; default none. */
  postLogoutRedirectUris?: string[];
  scopes: string[];
  grantTypes: string[];
  requiredRegionIds: number[];
  /** CLIENT_SECRET_PEPPER of the auth service. */
  pepper: string;
}

export interface ClientSummary extends Omit<CreateClientOptions, 'pepper'> {
  id: number;
  postLogoutRedirectUris: string[];
  /** In clear, this once; null for a public client. */
  secret: string | null;
}

function summary(client: OAuthClientEntity, secret: string | null): ClientSummary {
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    confidential: client.confidential,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    requiredRegionIds: client.requiredRegionIds,
    secret,
  };
}

export async function createClientCommand(
  em: EntityManager,
  options: CreateClientOptions,
): Promise<ClientSummary> {
  const { pepper, ...input } = options;
  const { client, secret } = await createOAuthClient(em, input, { pepper });
  return summary(client, secret);
}

/**
 * Replaces a client's post-logout redirect URIs (none: clears them), leaving every other setting
 * as it is; audited like a change on the admin pages, with no actor.
 */
export async function setPostLogoutRedirectUrisCommand(
  em: EntityManager,
  options: { clientId: string; postLogoutRedirectUris: string[] },
): Promise<ClientSummary & { changedFields: string[] }> {
  const current = await em.findOne(OAuthClientEntity, { clientId: options.clientId });
  if (!current) {
    throw new AccountError(
      'CLIENT_NOT_FOUND',
      `No OAuth client has the client id ${options.clientId}`,
    );
  }
  const { client, changedFields } = await updateOAuthClient(
    em,
    { clientId: options.clientId },
    {
      name: current.name,
      confidential: current.confidential,
      redirectUris: current.redirectUris,
      postLogoutRedirectUris: options.postLogoutRedirectUris,
      scopes: current.scopes,
      grantTypes: current.grantTypes,
      requiredRegionIds: current.requiredRegionIds,
    },
    // Confidentiality does not change, so no secret is made and the pepper goes unused.
    { actorId: null, pepper: '' },
  );
  return { ...summary(client, null), changedFields };
}

function describeClient(client: ClientSummary): string {
  const lines = [
    `Created ${client.confidential ? 'confidential' : 'public'} client ${client.clientId} "${client.name}".`,
    `  redirect URIs: ${client.redirectUris.join(' ')}`,
    `  post-logout redirect URIs: ${client.postLogoutRedirectUris.length > 0 ? client.postLogoutRedirectUris.join(' ') : 'none'}`,
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
  postLogoutRedirectUri?: string[];
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
        '--post-logout-redirect-uri <uri>',
        'where RP-Initiated Logout may send users back, exact, repeatable, same rules as --redirect-uri (default: none)',
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
                postLogoutRedirectUris: flags.postLogoutRedirectUri ?? [],
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

  clients.addCommand(
    leafCommand(
      'set-post-logout-uris',
      "replace a client's post-logout redirect URIs (RP-Initiated Logout); none given clears them",
    )
      .requiredOption('--client-id <clientId>', 'the client to change')
      .option(
        '--post-logout-redirect-uri <uri>',
        'exact URL, repeatable: https, or http on a loopback host; no fragment, no wildcard',
        collect,
      )
      .action((flags: JsonFlag & { clientId: string; postLogoutRedirectUri?: string[] }) =>
        runCommand(
          runtime,
          flags,
          () =>
            withEntityManager(runtime.env, (em) =>
              setPostLogoutRedirectUrisCommand(em, {
                clientId: flags.clientId,
                postLogoutRedirectUris: flags.postLogoutRedirectUri ?? [],
              }),
            ),
          (client) =>
            client.changedFields.length === 0
              ? `Client ${client.clientId} already had these post-logout redirect URIs.`
              : `Client ${client.clientId}: post-logout redirect URIs ${client.postLogoutRedirectUris.length > 0 ? client.postLogoutRedirectUris.join(' ') : 'none'}.`,
        ),
      ),
  );

  return clients;
}

export { summary as clientSummary };
