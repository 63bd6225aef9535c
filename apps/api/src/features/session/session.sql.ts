import type { CurrentUser } from '@foodshare/schemas';
import type { SqlQuery } from '@foodshare/domain';

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

/** Only the returned columns: this answers on every page load of a client. No row: inactive. */
export function currentUserQuery(userId: number): SqlQuery<CurrentUserRow> {
  return {
    sql: `select id, first_name, last_name, email, role, verified, sleeping, avatar_upload_id,
                 home_region_id
            from users where id = ? and activated`,
    params: [userId],
  };
}

export function currentUserOf(row: CurrentUserRow): CurrentUser {
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
