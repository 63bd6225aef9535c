import { OAuthClientEntity, type EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../../cli-runtime.ts';
import { listText } from '../../list-pages.ts';
import { describeDetails } from './client-lines.ts';
import { clientDetails, type ClientDetails } from './client-settings.ts';

export async function listClientsCommand(em: EntityManager): Promise<ClientDetails[]> {
  const clients = await em.find(OAuthClientEntity, {}, { orderBy: { clientId: 'asc' } });
  return clients.map((client) => clientDetails(client));
}

/** `clients list`. */
export function listClientsLeaf(runtime: CliRuntime): Command {
  return leafCommand('list', 'list every OAuth client').action((flags: JsonFlag) =>
    runCommand(
      runtime,
      flags,
      () => withEntityManager(runtime.env, (em) => listClientsCommand(em)),
      (list) => listText(list, 'No clients.', describeDetails),
    ),
  );
}
