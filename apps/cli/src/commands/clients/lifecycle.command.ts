import {
  deleteOAuthClient,
  setOAuthClientActive,
  type EntityManager,
  type OAuthClientEndOptions,
} from '@foodshare/domain';
import type { Command } from 'commander';
import { CliError, withEntityManager } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { withClientChange } from './client-change.ts';
import { clientCommand } from './client-command.ts';
import { endingGrantsWith } from './ending-grants.ts';

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

/** `clients activate`. */
export function activateClientLeaf(runtime: CliRuntime): Command {
  return clientCommand(
    runtime,
    'activate',
    'let a deactivated client sign users in again (its old grants stay ended)',
    ({ clientId }) =>
      // Activating ends no grants (setOAuthClientActive), so it needs no key-value store; nor
      // does it announce the change (withClientChange): auth instances keep only active clients.
      withEntityManager(runtime.env, (em) =>
        setClientActiveCommand(em, clientId, true, {
          actorId: null,
          endGrants: () => Promise.resolve(),
        }),
      ),
    (result) =>
      result.changed
        ? `Activated client ${result.clientId}.`
        : `Client ${result.clientId} was active already.`,
  );
}

/** `clients deactivate`: the client's grants end with it. */
export function deactivateClientLeaf(runtime: CliRuntime): Command {
  return clientCommand(
    runtime,
    'deactivate',
    'stop a client: it is unknown to the protocol endpoints, and every grant it holds (consents, codes, tokens) ends',
    ({ clientId }) =>
      withClientChange(
        runtime,
        clientId,
        (em, { orm, store }) =>
          setClientActiveCommand(em, clientId, false, endingGrantsWith(orm, store, runtime.env)),
        (result) => result.changed,
      ),
    (result) =>
      result.changed
        ? `Deactivated client ${result.clientId}; every grant it held has ended.`
        : `Client ${result.clientId} was deactivated already.`,
  );
}

/** `clients delete`: the client's grants end with it. */
export function deleteClientLeaf(runtime: CliRuntime): Command {
  return clientCommand(
    runtime,
    'delete',
    'delete a client and end every grant it holds (the audit log keeps it)',
    ({ clientId, yes }) => {
      if (!yes) {
        throw new CliError('INVALID_INPUT', `Deleting ${clientId} cannot be undone: add --yes.`);
      }
      return withClientChange(runtime, clientId, (em, { orm, store }) =>
        deleteClientCommand(em, clientId, endingGrantsWith(orm, store, runtime.env)),
      );
    },
    (result) => `Deleted client ${result.clientId}; every grant it held has ended.`,
  ).option('--yes', 'confirm: the client cannot be restored');
}
