import type { EntityManager } from '@foodshare/domain';
import type { Region } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';

interface RegionRow {
  id: number;
  name: string;
  type: Region['type'];
  admin_ids: number[];
  parent_id: number | null;
  master_id: number | null;
  mailbox: string | null;
  email_name: string | null;
  workgroup_function: number | null;
  allow_hiding_in_forum: boolean;
  timezone: string | null;
}

/**
 * One query, only the returned columns, the admin ids aggregated in SQL. The platform's own
 * client reads a missing reference as 0 and a missing text as empty, so that is how they go out.
 */
export async function readRegion(em: EntityManager, regionId: number): Promise<Region> {
  const rows = await em.execute<RegionRow[]>(
    `select r.id, r.name, r.type,
            array(select a.user_id from region_admins a where a.region_id = r.id
                   order by a.user_id) as admin_ids,
            r.parent_id, r.master_id, r.mailbox, r.email_name, r.workgroup_function,
            r.allow_hiding_in_forum, r.timezone
       from regions r
      where r.id = ?`,
    [regionId],
  );
  const row = rows[0];
  if (!row) throw Problem.notFound('There is no region with this id.');
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    adminIds: row.admin_ids,
    parentId: row.parent_id ?? 0,
    masterId: row.master_id ?? 0,
    mailbox: row.mailbox ?? '',
    emailName: row.email_name ?? '',
    workgroupFunction: row.workgroup_function ?? 0,
    allowHidingInForum: row.allow_hiding_in_forum,
    timezone: row.timezone,
  };
}
