import { updateOAuthClient, type EntityManager, type OAuthClientUpdate } from '@foodshare/domain';
import type { Command } from 'commander';
import { backchannelLogoutAllowedHostsOf } from '../../cli-context.ts';
import {
  collect,
  leafCommand,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { withClientChange } from './client-change.ts';
import { protocolOptionLines } from './client-lines.ts';
import { clientSummary, requireClient, type ClientSummary } from './client-settings.ts';

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
  const current = await requireClient(em, clientId);
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
  return { ...clientSummary(client, null), changedFields };
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
    requireDpop?: boolean;
    backchannelLogoutUri?: string | null;
    backchannelLogoutAllowedHosts?: readonly string[];
  },
): Promise<ClientSummary & { changedFields: string[] }> {
  const { clientId, backchannelLogoutAllowedHosts, ...change } = options;
  return changeClient(em, clientId, change, backchannelLogoutAllowedHosts);
}

/** An unchanged client has nothing to announce. */
const unlessUnchanged = (client: { changedFields: string[] }) => client.changedFields.length > 0;

/** `clients set-post-logout-uris`. */
export function setPostLogoutUrisLeaf(runtime: CliRuntime): Command {
  return leafCommand(
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
          withClientChange(
            runtime,
            flags.clientId,
            (em) =>
              setPostLogoutRedirectUrisCommand(em, {
                clientId: flags.clientId,
                postLogoutRedirectUris: flags.postLogoutRedirectUri ?? [],
              }),
            unlessUnchanged,
          ),
        (client) =>
          client.changedFields.length === 0
            ? `Client ${client.clientId} already had these post-logout redirect URIs.`
            : `Client ${client.clientId}: post-logout redirect URIs ${client.postLogoutRedirectUris.length > 0 ? client.postLogoutRedirectUris.join(' ') : 'none'}.`,
      ),
    );
}

/** `clients set-protocol-options`. */
export function setProtocolOptionsLeaf(runtime: CliRuntime): Command {
  return leafCommand(
    'set-protocol-options',
    "change a client's PAR and DPoP requirements and back-channel logout URI; what is not given stays",
  )
    .requiredOption('--client-id <clientId>', 'the client to change')
    .option('--require-par', 'refuse authorization requests not pushed to /oauth/par first')
    .option('--no-require-par', 'accept authorization requests sent to /oauth/authorize directly')
    .option('--require-dpop', 'refuse token requests without a DPoP proof (RFC 9449)')
    .option('--no-require-dpop', 'accept token requests without a DPoP proof')
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
          requireDpop?: boolean;
          backchannelLogoutUri?: string | false;
        },
      ) =>
        runCommand(
          runtime,
          flags,
          () =>
            withClientChange(
              runtime,
              flags.clientId,
              (em) =>
                setProtocolOptionsCommand(em, {
                  clientId: flags.clientId,
                  ...(flags.requirePar === undefined
                    ? {}
                    : { requirePushedAuthorizationRequests: flags.requirePar }),
                  ...(flags.requireDpop === undefined ? {} : { requireDpop: flags.requireDpop }),
                  ...(flags.backchannelLogoutUri === undefined
                    ? {}
                    : { backchannelLogoutUri: flags.backchannelLogoutUri || null }),
                  backchannelLogoutAllowedHosts: backchannelLogoutAllowedHostsOf(runtime.env),
                }),
              unlessUnchanged,
            ),
          (client) =>
            [
              client.changedFields.length === 0
                ? `Client ${client.clientId} already had these settings.`
                : `Client ${client.clientId} changed:`,
              ...protocolOptionLines(client),
            ].join('\n'),
        ),
    );
}
