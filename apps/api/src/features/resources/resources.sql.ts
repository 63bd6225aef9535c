import { type SqlQuery } from '@foodshare/domain';
import type { OwnResources, UserStub } from '@foodshare/schemas';
import { userStubJson } from '../../shared/sql.ts';

interface ResourceRow {
  /** Null on the one row of a user without resources. */
  id: number | null;
  name: string;
  description: string;
  owner: UserStub;
  region_id: number;
  is_home_region: boolean;
  is_user_active: boolean;
  is_private: boolean;
  is_favorite: boolean;
  openness: number;
}

/**
 * The user's resources, favourites first, then newest; one row without a resource for an active
 * user who has none, and no row at all for an account that is no longer active.
 */
export function ownResourcesQuery(userId: number): SqlQuery<ResourceRow> {
  return {
    sql: `select r.id, r.name, r.description, ${userStubJson('u')} as owner, r.region_id,
                 r.region_id is not distinct from u.home_region_id as is_home_region,
                 exists (select 1 from region_memberships m
                          where m.region_id = r.region_id and m.user_id = u.id and m.active)
                   as is_user_active,
                 r.is_private, r.is_favorite, r.openness
            from users u
            left join resources r on r.owner_id = u.id
           where u.id = ? and u.activated
           order by r.is_favorite desc, r.created_at desc, r.id desc`,
    params: [userId],
  };
}

export function ownResourcesOf(rows: ResourceRow[]): OwnResources {
  return rows.flatMap((row) =>
    row.id === null
      ? []
      : [
          {
            id: row.id,
            name: row.name,
            description: row.description,
            user: row.owner,
            regionId: row.region_id,
            isHomeRegion: row.is_home_region,
            isUserActive: row.is_user_active,
            isPrivate: row.is_private,
            isFavorite: row.is_favorite,
            openness: row.openness,
          },
        ],
  );
}
