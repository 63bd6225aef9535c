import type { EntityManager } from '@foodshare/domain';
import type { OwnResources, Resource, UserStub } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';

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
 * The caller's resources, favourites first, then newest, in one query that also proves the
 * account is still active (no row at all: 401). `isUserActive` says whether the owner is still
 * an active member of the resource's region, where its lenders find it.
 */
export async function listOwnResources(em: EntityManager, userId: number): Promise<OwnResources> {
  const rows = await em.execute<ResourceRow[]>(
    `select r.id, r.name, r.description,
            json_build_object(
              'id', u.id,
              'name', u.first_name,
              'avatar', case when u.avatar_upload_id is null then null
                             else '/api/uploads/' || u.avatar_upload_id end,
              'isSleeping', u.sleeping) as owner,
            r.region_id,
            r.region_id is not distinct from u.home_region_id as is_home_region,
            exists (select 1 from region_memberships m
                     where m.region_id = r.region_id and m.user_id = u.id and m.active)
              as is_user_active,
            r.is_private, r.is_favorite, r.openness
       from users u
       left join resources r on r.owner_id = u.id
      where u.id = ? and u.activated
      order by r.is_favorite desc, r.created_at desc, r.id desc`,
    [userId],
  );
  if (rows.length === 0) throw Problem.unauthorized('Your account is no longer active.');
  return rows.flatMap((row): Resource[] =>
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
