import { runSql } from '@foodshare/domain';
import type { EntityManager } from '@foodshare/domain';
import type { CurrentUser } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { currentUserOf, currentUserQuery } from './session.sql.ts';

/** One query, only the returned columns: this answers on every page load of a client. */
export async function loadCurrentUser(em: EntityManager, userId: number): Promise<CurrentUser> {
  const [row] = await runSql(em, currentUserQuery(userId));
  if (!row) throw Problem.accountInactive();
  return currentUserOf(row);
}
