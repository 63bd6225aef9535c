import { clientGrantEnder } from '@foodshare/server-kit/oauth-grants';
import {
  AccountError,
  deleteOAuthClient,
  endPreviousOAuthClientSecret,
  OAuthClientEntity,
  regenerateOAuthClientSecret,
  setOAuthClientActive,
  updateOAuthClient,
  type EntityManager,
  type MikroORM,
  type OAuthClientEndOptions,
  type OAuthClientUpdate,
} from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import type { Command } from 'commander';
import {
  backchannelLogoutAllowedHostsOf,
  clientSecretPepper,
  CliError,
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  secondsFromEnv,
  withEntityManager,
  withOrm,
  type CliEnvironment,
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
import { withKeyValueStore } from '../cli-state.ts';
import {
  clientSummary,
  displayUriLines,
  displayUrisOf,
  withDisplayUriOptions,
  type ClientSummary,
  type DisplayUriFlags,
} from './clients.command.ts';

export type ClientDetails = Omit<ClientSummary, 'secret'> & {
  active: boolean;
  /** Until when the secret replaced by the last rotation still works; null when none does. */
  previousSecretValidUntil: string | null;
};

function details(client: OAuthClientEntity, now = new Date()): ClientDetails {
  const { secret: _secret, ...settings } = clientSummary(client, null);
  const until = client.previousSecretExpiresAt;
  return {
    ...settings,
    active: client.active,
    previousSecretValidUntil: until && until > now ? until.toISOString() : null,
  };
}

async function requireClient(em: EntityManager, clientId: string): Promise<OAuthClientEntity> {
  const client = await em.findOne(OAuthClientEntity, { clientId });
  if (!client)
    throw new AccountError('CLIENT_NOT_FOUND', `No OAuth client has the client id ${clientId}`);
  return client;
}

export async function listClientsCommand(em: EntityManager): Promise<ClientDetails[]> {
  const clients = await em.find(OAuthClientEntity, {}, { orderBy: { clientId: 'asc' } });
  return clients.map((client) => details(client));
}

export async function showClientCommand(
  em: EntityManager,
  clientId: string,
): Promise<ClientDetails> {
  return details(await requireClient(em, clientId));
}

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
  return { ...details(client), changedFields, secret };
}

/** The token lifetimes of the auth service, which a client's grant cutoff must outlive. */
function grantLifetimes(env: CliEnvironment) {
  return {
    ACCESS_TOKEN_TTL_SECONDS: secondsFromEnv(
      env,
      'ACCESS_TOKEN_TTL_SECONDS',
      DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    ),
    REFRESH_TOKEN_TTL_SECONDS: secondsFromEnv(
      env,
      'REFRESH_TOKEN_TTL_SECONDS',
      DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    ),
  };
}

/**
 * Ending a client's grants as the auth service does: a cutoff in its key-value store and in
 * PostgreSQL, written beside the change's transaction (OAuthClientEndOptions.endGrants).
 */
export function endingGrantsWith(
  orm: MikroORM,
  store: KeyValueStore,
  env: CliEnvironment,
): OAuthClientEndOptions {
  return {
    actorId: null,
    endGrants: clientGrantEnder(store, () => orm.em.fork(), grantLifetimes(env)),
  };
}

export async function setClientActiveCommand(
  em: EntityManager,
  clientId: string,
  active: boolean,
  options: OAuthClientEndOptions,
): Promise<{ clientId: string; active: boolean; changed: boolean }> {
  const { changed } = await setOAuthClientActive(em, { clientId }, active, options);
  return { clientId, active, changed };
}

export async function deleteClientCommand(
  em: EntityManager,
  clientId: string,
  options: OAuthClientEndOptions,
): Promise<{ clientId: string; deleted: true }> {
  await deleteOAuthClient(em, { clientId }, options);
  return { clientId, deleted: true };
}

export async function rotateSecretCommand(
  em: EntityManager,
  clientId: string,
  pepper: string,
): Promise<{ clientId: string; secret: string; previousSecretValidUntil: string }> {
  const rotated = await regenerateOAuthClientSecret(em, { clientId }, { actorId: null, pepper });
  return {
    clientId,
    secret: rotated.secret,
    previousSecretValidUntil: rotated.previousSecretExpiresAt.toISOString(),
  };
}

/**
 * Ends the previous secret of a rotation at once, as the admin page's "end previous secret"
 * does: for a secret that may have leaked. `ended` is false when none was still valid.
 */
export async function endPreviousSecretCommand(
  em: EntityManager,
  clientId: string,
): Promise<{ clientId: string; ended: boolean }> {
  return endPreviousOAuthClientSecret(em, { clientId }, { actorId: null });
}

function describeDetails(client: ClientDetails): string {
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

function secretLines(secret: string): string[] {
  return [
    '',
    `Client secret: ${secret}`,
    'It is shown this once and stored only as a hash: keep it now.',
  ];
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

interface ClientIdFlags extends JsonFlag {
  clientId: string;
  yes?: boolean;
}

/** A command that names one client by `--client-id` and runs `action` on it. */
function clientCommand<T>(
  runtime: CliRuntime,
  name: string,
  description: string,
  action: (flags: ClientIdFlags) => Promise<T>,
  describe: (result: T) => string,
): Command {
  return leafCommand(name, description)
    .requiredOption('--client-id <clientId>', 'the client')
    .action((flags: ClientIdFlags) => runCommand(runtime, flags, () => action(flags), describe));
}

/**
 * clients list, show, update, activate, deactivate, delete and rotate-secret, added to the
 * `clients` command.
 */
export function addClientAdminCommands(clients: Command, runtime: CliRuntime): Command {
  const { env } = runtime;
  // Deactivating and deleting end the client's grants, kept in Redis and PostgreSQL.
  const endingGrants = <T>(
    change: (em: EntityManager, options: OAuthClientEndOptions) => Promise<T>,
  ) =>
    withKeyValueStore(env, (store) =>
      withOrm(env, (orm) => change(orm.em.fork(), endingGrantsWith(orm, store, env))),
    );

  clients.addCommand(
    leafCommand('list', 'list every OAuth client').action((flags: JsonFlag) =>
      runCommand(
        runtime,
        flags,
        () => withEntityManager(env, (em) => listClientsCommand(em)),
        (list) => (list.length === 0 ? 'No clients.' : list.map(describeDetails).join('\n')),
      ),
    ),
  );

  clients.addCommand(
    clientCommand(
      runtime,
      'show',
      'show one OAuth client',
      ({ clientId }) => withEntityManager(env, (em) => showClientCommand(em, clientId)),
      describeDetails,
    ),
  );

  clients.addCommand(
    withDisplayUriOptions(
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
          'openid (required), profile, email, regions; repeatable',
          collectList,
        )
        .option(
          '--grant <grantType>',
          'authorization_code (required), refresh_token; repeatable',
          collectList,
        )
        .option(
          '--required-region <regionId>',
          'only members of this region; repeatable',
          collectIds,
        )
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
          return withEntityManager(env, (em) =>
            updateClientCommand(em, {
              clientId: flags.clientId,
              changes,
              pepper,
              backchannelLogoutAllowedHosts: backchannelLogoutAllowedHostsOf(env),
            }),
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
    ),
  );

  clients.addCommand(
    clientCommand(
      runtime,
      'activate',
      'let a deactivated client sign users in again (its old grants stay ended)',
      ({ clientId }) =>
        // Activating ends no grants (setOAuthClientActive), so it needs no key-value store.
        withEntityManager(env, (em) =>
          setClientActiveCommand(em, clientId, true, {
            actorId: null,
            endGrants: () => Promise.resolve(),
          }),
        ),
      (result) =>
        result.changed
          ? `Activated client ${result.clientId}.`
          : `Client ${result.clientId} was active already.`,
    ),
  );

  clients.addCommand(
    clientCommand(
      runtime,
      'deactivate',
      'stop a client: it is unknown to the protocol endpoints, and every grant it holds (consents, codes, tokens) ends',
      ({ clientId }) =>
        endingGrants((em, options) => setClientActiveCommand(em, clientId, false, options)),
      (result) =>
        result.changed
          ? `Deactivated client ${result.clientId}; every grant it held has ended.`
          : `Client ${result.clientId} was deactivated already.`,
    ),
  );

  clients.addCommand(
    clientCommand(
      runtime,
      'delete',
      'delete a client and end every grant it holds (the audit log keeps it)',
      ({ clientId, yes }) => {
        if (!yes) {
          throw new CliError('INVALID_INPUT', `Deleting ${clientId} cannot be undone: add --yes.`);
        }
        return endingGrants((em, options) => deleteClientCommand(em, clientId, options));
      },
      (result) => `Deleted client ${result.clientId}; every grant it held has ended.`,
    ).option('--yes', 'confirm: the client cannot be restored'),
  );

  clients.addCommand(
    clientCommand(
      runtime,
      'rotate-secret',
      'give a confidential client a new secret (printed once); the previous one works 24 more hours',
      ({ clientId }) => {
        const pepper = clientSecretPepper(env);
        return withEntityManager(env, (em) => rotateSecretCommand(em, clientId, pepper));
      },
      (result) =>
        [
          `New secret for client ${result.clientId}; the previous one works until ${result.previousSecretValidUntil}.`,
          ...secretLines(result.secret),
        ].join('\n'),
    ),
  );

  clients.addCommand(
    clientCommand(
      runtime,
      'end-previous-secret',
      'end at once the secret a rotation replaced, instead of after its 24 hours (a leaked secret)',
      ({ clientId }) => withEntityManager(env, (em) => endPreviousSecretCommand(em, clientId)),
      (result) =>
        result.ended
          ? `Ended the previous secret of client ${result.clientId}: only the current one works.`
          : `Client ${result.clientId} had no previous secret still valid; nothing changed.`,
    ),
  );

  return clients;
}
