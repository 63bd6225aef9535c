import { updateOAuthClient, type EntityManager, type OAuthClientUpdate } from '@foodshare/domain';
import type { Command } from 'commander';
import {
  backchannelLogoutAllowedHostsOf,
  clientSecretPepper,
  CliError,
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
import { withClientChange } from './client-change.ts';
import { describeDetails, secretLines } from './client-lines.ts';
import { clientDetails, requireClient, type ClientDetails } from './client-settings.ts';
import {
  displayUrisOf,
  withDisplayUriOptions,
  type DisplayUriFlags,
} from './display-uri-options.ts';

/** The settings to change; what is left out stays as it is. */
export interface ClientChanges {
  name?: string;
  confidential?: boolean;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  /** What the consent page shows; null removes one. */
  logoUri?: string | null;
  clientUri?: string | null;
  policyUri?: string | null;
  tosUri?: string | null;
  scopes?: string[];
  grantTypes?: string[];
  requiredRegionIds?: number[];
}

/**
 * Changes some settings of a client, audited like a change on the admin pages (no actor). A
 * public client made confidential gets a secret, returned this once.
 */
export async function updateClientCommand(
  em: EntityManager,
  options: {
    clientId: string;
    changes: ClientChanges;
    pepper: string;
    /** BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: the client's back-channel logout URI is checked again. */
    backchannelLogoutAllowedHosts?: readonly string[];
  },
): Promise<ClientDetails & { changedFields: string[]; secret: string | null }> {
  const current = await requireClient(em, options.clientId);
  const update: OAuthClientUpdate = {
    name: options.changes.name ?? current.name,
    confidential: options.changes.confidential ?? current.confidential,
    redirectUris: options.changes.redirectUris ?? current.redirectUris,
    postLogoutRedirectUris:
      options.changes.postLogoutRedirectUris ?? current.postLogoutRedirectUris,
    scopes: options.changes.scopes ?? current.scopes,
    grantTypes: options.changes.grantTypes ?? current.grantTypes,
    requiredRegionIds: options.changes.requiredRegionIds ?? current.requiredRegionIds,
    // Left out, they stay as they are (updateOAuthClient keeps what an update does not name).
    ...(options.changes.logoUri === undefined ? {} : { logoUri: options.changes.logoUri }),
    ...(options.changes.clientUri === undefined ? {} : { clientUri: options.changes.clientUri }),
    ...(options.changes.policyUri === undefined ? {} : { policyUri: options.changes.policyUri }),
    ...(options.changes.tosUri === undefined ? {} : { tosUri: options.changes.tosUri }),
  };
  const { client, changedFields, secret } = await updateOAuthClient(
    em,
    { clientId: options.clientId },
    update,
    {
      actorId: null,
      pepper: options.pepper,
      backchannelLogoutAllowedHosts: options.backchannelLogoutAllowedHosts,
    },
  );
  return { ...clientDetails(client), changedFields, secret };
}

interface UpdateClientFlags extends JsonFlag, DisplayUriFlags {
  clientId: string;
  name?: string;
  confidential?: boolean;
  public?: boolean;
  redirectUri?: string[];
  postLogoutRedirectUri?: string[];
  clearPostLogoutRedirectUris?: boolean;
  scope?: string[];
  grant?: string[];
  requiredRegion?: number[];
  clearRequiredRegions?: boolean;
}

export function clientChangesOf(flags: UpdateClientFlags): ClientChanges {
  if (flags.confidential && flags.public) {
    throw new CliError('INVALID_INPUT', 'Give either --confidential or --public, not both.');
  }
  if (flags.clearRequiredRegions && flags.requiredRegion) {
    throw new CliError(
      'INVALID_INPUT',
      'Give either --required-region or --clear-required-regions.',
    );
  }
  if (flags.clearPostLogoutRedirectUris && flags.postLogoutRedirectUri) {
    throw new CliError(
      'INVALID_INPUT',
      'Give either --post-logout-redirect-uri or --clear-post-logout-redirect-uris.',
    );
  }
  const changes: ClientChanges = {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.confidential ? { confidential: true } : flags.public ? { confidential: false } : {}),
    ...(flags.redirectUri ? { redirectUris: flags.redirectUri } : {}),
    ...(flags.postLogoutRedirectUri ? { postLogoutRedirectUris: flags.postLogoutRedirectUri } : {}),
    ...(flags.clearPostLogoutRedirectUris ? { postLogoutRedirectUris: [] } : {}),
    ...(flags.scope ? { scopes: flags.scope } : {}),
    ...(flags.grant ? { grantTypes: flags.grant } : {}),
    ...(flags.requiredRegion ? { requiredRegionIds: flags.requiredRegion } : {}),
    ...(flags.clearRequiredRegions ? { requiredRegionIds: [] } : {}),
    ...displayUrisOf(flags),
  };
  if (Object.keys(changes).length === 0) {
    throw new CliError(
      'INVALID_INPUT',
      'Nothing to change: give at least one setting (see --help).',
    );
  }
  return changes;
}

/** `clients update`. */
export function updateClientLeaf(runtime: CliRuntime): Command {
  const { env } = runtime;
  return withDisplayUriOptions(
    leafCommand('update', "change a client's settings; a list given replaces the client's")
      .requiredOption('--client-id <clientId>', 'the client')
      .option('--name <name>', 'shown to users on the consent screen')
      .option('--confidential', 'make a public client confidential (a secret is printed once)')
      .option('--public', 'make a confidential client public (its secrets end)')
      .option('--redirect-uri <uri>', 'exact callback URL, repeatable', collect)
      .option('--post-logout-redirect-uri <uri>', 'exact post-logout URL, repeatable', collect)
      .option('--clear-post-logout-redirect-uris', 'remove every post-logout redirect URI')
      .option(
        '--scope <scope>',
        'openid (required), profile, email, regions, api (the REST API); repeatable',
        collectList,
      )
      .option(
        '--grant <grantType>',
        'authorization_code (required), refresh_token, urn:ietf:params:oauth:grant-type:device_code; repeatable',
        collectList,
      )
      .option('--required-region <regionId>', 'only members of this region; repeatable', collectIds)
      .option('--clear-required-regions', 'let every user use the client'),
    true,
  ).action((flags: UpdateClientFlags) =>
    runCommand(
      runtime,
      flags,
      () => {
        const changes = clientChangesOf(flags);
        // Only a client made confidential gets a secret, so only then is the pepper needed.
        const pepper = changes.confidential ? clientSecretPepper(env) : '';
        return withClientChange(
          runtime,
          flags.clientId,
          (em) =>
            updateClientCommand(em, {
              clientId: flags.clientId,
              changes,
              pepper,
              backchannelLogoutAllowedHosts: backchannelLogoutAllowedHostsOf(env),
            }),
          (result) => result.changedFields.length > 0,
        );
      },
      (result) =>
        [
          result.changedFields.length === 0
            ? `Client ${result.clientId} already had these settings.`
            : `Changed ${result.changedFields.join(', ')} of client ${result.clientId}.`,
          describeDetails(result),
          ...(result.secret === null ? [] : secretLines(result.secret)),
        ].join('\n'),
    ),
  );
}
