import {
  AccountError,
  createOAuthClient,
  OAuthClientEntity,
  updateOAuthClient,
  type EntityManager,
  type OAuthClientUpdate,
} from '@foodshare/domain';
import { Command } from 'commander';
import {
  backchannelLogoutAllowedHostsOf,
  clientSecretPepper,
  withEntityManager,
} from '../cli-context.ts';
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
  /** RFC 9126 6: authorization requests only through /oauth/par; default false. */
  requirePushedAuthorizationRequests?: boolean;
  /** Where Back-Channel Logout POSTs logout tokens; default none. */
  backchannelLogoutUri?: string | null;
  /** Shown on the consent page (https; default none): the logo as an image, the rest as links. */
  logoUri?: string | null;
  clientUri?: string | null;
  policyUri?: string | null;
  tosUri?: string | null;
  scopes: string[];
  grantTypes: string[];
  requiredRegionIds: number[];
  /** CLIENT_SECRET_PEPPER of the auth service. */
  pepper: string;
  /** BACKCHANNEL_LOGOUT_ALLOWED_HOSTS of the auth service, parsed; default none. */
  backchannelLogoutAllowedHosts?: readonly string[];
}

export interface ClientSummary extends Omit<
  CreateClientOptions,
  'pepper' | 'backchannelLogoutAllowedHosts'
> {
  id: number;
  postLogoutRedirectUris: string[];
  requirePushedAuthorizationRequests: boolean;
  backchannelLogoutUri: string | null;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
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
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
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

export async function createClientCommand(
  em: EntityManager,
  options: CreateClientOptions,
): Promise<ClientSummary> {
  const { pepper, backchannelLogoutAllowedHosts, ...input } = options;
  const { client, secret } = await createOAuthClient(em, input, {
    pepper,
    backchannelLogoutAllowedHosts,
  });
  return summary(client, secret);
}

/**
 * Changes some of a client's settings, leaving every other as it is; audited like a change on
 * the admin pages, with no actor.
 */
async function changeClient(
  em: EntityManager,
  clientId: string,
  change: Partial<OAuthClientUpdate>,
  backchannelLogoutAllowedHosts: readonly string[] = [],
): Promise<ClientSummary & { changedFields: string[] }> {
  const current = await em.findOne(OAuthClientEntity, { clientId });
  if (!current) {
    throw new AccountError('CLIENT_NOT_FOUND', `No OAuth client has the client id ${clientId}`);
  }
  const { client, changedFields } = await updateOAuthClient(
    em,
    { clientId },
    {
      name: current.name,
      confidential: current.confidential,
      redirectUris: current.redirectUris,
      scopes: current.scopes,
      grantTypes: current.grantTypes,
      requiredRegionIds: current.requiredRegionIds,
      ...change,
    },
    // Confidentiality does not change, so no secret is made and the pepper goes unused.
    { actorId: null, pepper: '', backchannelLogoutAllowedHosts },
  );
  return { ...summary(client, null), changedFields };
}

/** Replaces a client's post-logout redirect URIs (none: clears them). */
export function setPostLogoutRedirectUrisCommand(
  em: EntityManager,
  options: { clientId: string; postLogoutRedirectUris: string[] },
): Promise<ClientSummary & { changedFields: string[] }> {
  return changeClient(em, options.clientId, {
    postLogoutRedirectUris: options.postLogoutRedirectUris,
  });
}

/**
 * Sets whether a client must push its authorization requests (RFC 9126) and its back-channel
 * logout URI (null: none); what is not given stays as it is.
 */
export function setProtocolOptionsCommand(
  em: EntityManager,
  options: {
    clientId: string;
    requirePushedAuthorizationRequests?: boolean;
    backchannelLogoutUri?: string | null;
    backchannelLogoutAllowedHosts?: readonly string[];
  },
): Promise<ClientSummary & { changedFields: string[] }> {
  const { clientId, backchannelLogoutAllowedHosts, ...change } = options;
  return changeClient(em, clientId, change, backchannelLogoutAllowedHosts);
}

/** What the consent page shows of the client, one line each. */
export function displayUriLines(client: Omit<ClientSummary, 'secret'>): string[] {
  return [
    `  logo URI: ${client.logoUri ?? 'none'}`,
    `  home page URI: ${client.clientUri ?? 'none'}`,
    `  privacy policy URI: ${client.policyUri ?? 'none'}`,
    `  terms of service URI: ${client.tosUri ?? 'none'}`,
  ];
}

/** The consent page's https URIs: one option each, for create and update alike. */
export function withDisplayUriOptions(command: Command, clearable: boolean): Command {
  const options = [
    ['logo-uri', "the client's logo, shown as an image on the consent page"],
    ['client-uri', "the client's home page, linked from the consent page"],
    ['policy-uri', "the client's privacy policy, linked from the consent page"],
    ['tos-uri', "the client's terms of service, linked from the consent page"],
  ] as const;
  for (const [name, description] of options) {
    command.option(`--${name} <uri>`, `${description}: https only, never fetched by the server`);
    if (clearable) command.option(`--no-${name}`, `remove the ${name.replace('-uri', '')} URI`);
  }
  return command;
}

/** The flags of withDisplayUriOptions; false: cleared. */
export interface DisplayUriFlags {
  logoUri?: string | false;
  clientUri?: string | false;
  policyUri?: string | false;
  tosUri?: string | false;
}

/** The display URIs given on the command line; what is not given is left out. */
export function displayUrisOf(
  flags: DisplayUriFlags,
): Partial<Record<keyof DisplayUriFlags, string | null>> {
  const given: Partial<Record<keyof DisplayUriFlags, string | null>> = {};
  for (const field of ['logoUri', 'clientUri', 'policyUri', 'tosUri'] as const) {
    const value = flags[field];
    if (value !== undefined) given[field] = value === false ? null : value;
  }
  return given;
}

function protocolOptionLines(client: ClientSummary): string[] {
  return [
    `  pushed authorization requests: ${client.requirePushedAuthorizationRequests ? 'required' : 'optional'}`,
    `  back-channel logout URI: ${client.backchannelLogoutUri ?? 'none'}`,
  ];
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
  backchannelLogoutUri?: string;
  scope?: string[];
  grant?: string[];
  requiredRegion?: number[];
}

export function clientsCommands(runtime: CliRuntime): Command {
  const clients = new Command('clients').description('OAuth clients of the authorization server');

  clients.addCommand(
    withDisplayUriOptions(
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
        .option(
          '--backchannel-logout-uri <uri>',
          'where logout tokens are POSTed (OpenID Connect Back-Channel Logout): https to a public host, no private address or internal name (default: none)',
        ),
      false,
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
                requirePushedAuthorizationRequests: flags.requirePar ?? false,
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
        'exact URL, repeatable, same rules as --redirect-uri of clients create',
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

  clients.addCommand(
    leafCommand(
      'set-protocol-options',
      "change a client's PAR requirement and back-channel logout URI; what is not given stays",
    )
      .requiredOption('--client-id <clientId>', 'the client to change')
      .option('--require-par', 'refuse authorization requests not pushed to /oauth/par first')
      .option('--no-require-par', 'accept authorization requests sent to /oauth/authorize directly')
      .option(
        '--backchannel-logout-uri <uri>',
        'where logout tokens are POSTed: https to a public host, no private address or internal name, no fragment',
      )
      .option('--no-backchannel-logout-uri', 'send no logout tokens to this client')
      .action(
        (
          flags: JsonFlag & {
            clientId: string;
            requirePar?: boolean;
            backchannelLogoutUri?: string | false;
          },
        ) =>
          runCommand(
            runtime,
            flags,
            () =>
              withEntityManager(runtime.env, (em) =>
                setProtocolOptionsCommand(em, {
                  clientId: flags.clientId,
                  ...(flags.requirePar === undefined
                    ? {}
                    : { requirePushedAuthorizationRequests: flags.requirePar }),
                  ...(flags.backchannelLogoutUri === undefined
                    ? {}
                    : { backchannelLogoutUri: flags.backchannelLogoutUri || null }),
                  backchannelLogoutAllowedHosts: backchannelLogoutAllowedHostsOf(runtime.env),
                }),
              ),
            (client) =>
              [
                client.changedFields.length === 0
                  ? `Client ${client.clientId} already had these settings.`
                  : `Client ${client.clientId} changed:`,
                ...protocolOptionLines(client),
              ].join('\n'),
          ),
      ),
  );

  return clients;
}

export { summary as clientSummary };
