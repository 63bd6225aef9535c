import {
  type Actor,
  type ForumReadFacts,
  holdsRegionDuty,
  RegionType,
  WorkGroupFunction,
} from '@foodshare/domain';

/**
 * Columns that decide what the actor may do in the thread aliased `t`: the region's membership
 * and ambassadors, and its moderation duty (docs/domain.md §3.1: the admins of a moderation working
 * group under the region, or its ambassadors when it has none). Takes the actor id three times.
 */
export const THREAD_ACCESS_COLUMNS = `
  t.is_ambassador_forum,
  exists (select 1 from region_memberships m
           where m.region_id = t.region_id and m.user_id = ? and m.active) as is_member,
  exists (select 1 from region_admins a
           where a.region_id = t.region_id and a.user_id = ?) as is_ambassador,
  exists (select 1 from regions g
           where g.parent_id = t.region_id and g.type = ${RegionType.WorkingGroup}
             and g.workgroup_function = ${WorkGroupFunction.Moderation}) as has_moderation_group,
  exists (select 1 from regions g join region_admins ga on ga.region_id = g.id
           where g.parent_id = t.region_id and g.type = ${RegionType.WorkingGroup}
             and g.workgroup_function = ${WorkGroupFunction.Moderation}
             and ga.user_id = ?) as is_moderation_group_admin`;

export const threadAccessParams = (actor: Actor): number[] => [actor.id, actor.id, actor.id];

export interface ThreadAccessRow {
  is_ambassador_forum: boolean;
  is_member: boolean;
  is_ambassador: boolean;
  has_moderation_group: boolean;
  is_moderation_group_admin: boolean;
}

export function forumFactsOf(actor: Actor, row: ThreadAccessRow): ForumReadFacts {
  // The row says only whether the actor is among the holders, so the sets hold the actor alone.
  const mine = (member: boolean) => new Set(member ? [actor.id] : []);
  const holdsModerationDuty = holdsRegionDuty(actor, {
    delegateAdminIds: row.has_moderation_group ? mine(row.is_moderation_group_admin) : null,
    ambassadorIds: mine(row.is_ambassador),
  });
  return {
    holdsModerationDuty,
    isAmbassadorForum: row.is_ambassador_forum,
    isRegionMember: row.is_member,
    isRegionAmbassador: row.is_ambassador,
  };
}
