import type { EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { clientCommand } from './client-command.ts';
import { describeDetails } from './client-lines.ts';
import { clientDetails, requireClient, type ClientDetails } from './client-settings.ts';

export async function showClientCommand(
  em: EntityManager,
  clientId: string,
): Promise<ClientDetails> {
  return clientDetails(await requireClient(em, clientId));
}

/** `clients show`. */
export function showClientLeaf(runtime: CliRuntime): Command {
  return clientCommand(
    runtime,
    'show',
    'show one OAuth client',
    ({ clientId }) => withEntityManager(runtime.env, (em) => showClientCommand(em, clientId)),
    describeDetails,
  );
}
