import type { EntityManager } from '@foodshare/domain';
import type { CurrentUser } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';

interface CurrentUserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  role: number;
  verified: boolean;
  sleeping: boolean;
  avatar_upload_id: string | null;
  home_region_id: number | null;
}

/** One query, only the returned columns: this answers on every page load of a client. */
export async function loadCurrentUser(em: EntityManager, userId: number): Promise<CurrentUser> {
  const rows = await em.execute<CurrentUserRow[]>(
    `select id, first_name, last_name, email, role, verified, sleeping, avatar_upload_id, home_region_id
       from users where id = ? and activated`,
    [userId],
  );
  const row = rows[0];
  if (!row) throw Problem.unauthorized('Your account is no longer active.');
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role,
    verified: row.verified,
    isSleeping: row.sleeping,
    avatar: row.avatar_upload_id === null ? null : `/api/uploads/${row.avatar_upload_id}`,
    homeRegionId: row.home_region_id,
  };
}
