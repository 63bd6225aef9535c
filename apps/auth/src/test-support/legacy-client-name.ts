import type { EntityManager } from '@foodshare/domain';

/**
 * Gives a registered client a name with markup, as a client registered before such names were
 * refused (release 0.1.0) may still carry: the pages must show it as text.
 */
export async function giveLegacyClientName(
  em: EntityManager,
  clientId: string,
  name: string,
): Promise<void> {
  const updated = await em.execute(
    'update oauth_clients set name = ? where client_id = ? returning client_id',
    [name, clientId],
  );
  if (updated.length !== 1) throw new Error(`No client ${clientId} to rename`);
}
