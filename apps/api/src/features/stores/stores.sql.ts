import { StoreLogAction, StoreTeamStatus, type SqlQuery } from '@foodshare/domain';
import type { StoreTeamRequestList, UserStub } from '@foodshare/schemas';
import { FIRST_PAGE, type Page } from '../../shared/page-query.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

const EARTH_RADIUS_KM = 6371;
/** A request without a recorded date (legacy rows) shows the epoch rather than failing the list. */
const UNKNOWN_DATE = new Date(0);

interface TeamRequestRow {
  user: UserStub;
  first_name: string;
  verified: boolean;
  applied_at: Date | string | null;
  application_message: string | null;
  distance_km: number | string;
}

/**
 * One page of the pending requests of one store with the applicants, newest application first,
 * in one query on the (store_id, status) index. The applicant stub carries the full name, so
 * that the managers can tell two applicants of the same first name apart. The distance is the
 * great-circle distance between the applicant's address and the store, rounded to whole km;
 * -1 when either has no coordinates.
 */
export function teamRequestsQuery(
  storeId: number,
  page: Page = FIRST_PAGE,
): SqlQuery<TeamRequestRow> {
  const haversine = `${EARTH_RADIUS_KM} * 2 * asin(sqrt(
      power(sin(radians(u.latitude - s.latitude) / 2), 2)
      + cos(radians(s.latitude)) * cos(radians(u.latitude))
        * power(sin(radians(u.longitude - s.longitude) / 2), 2)))`;
  return {
    sql: `select ${userStubJson('u', { fullName: true })} as user,
                 u.first_name, u.verified, m.applied_at, m.application_message,
                 case when s.latitude is null or s.longitude is null
                        or u.latitude is null or u.longitude is null then -1
                      else round(${haversine})
                 end as distance_km
            from store_team_memberships m
            join stores s on s.id = m.store_id
            join users u on u.id = m.user_id
           where m.store_id = ? and m.status = ?
           order by m.applied_at desc nulls last, m.user_id desc
           limit ? offset ?`,
    params: [storeId, StoreTeamStatus.Applied, page.limit, page.offset],
  };
}

export function teamRequestsOf(rows: TeamRequestRow[]): StoreTeamRequestList {
  return rows.map((row) => ({
    user: row.user,
    firstName: row.first_name,
    verified: row.verified,
    distanceInKm: Number(row.distance_km),
    date: isoTimestamp(row.applied_at ?? UNKNOWN_DATE),
    message: row.application_message,
  }));
}

interface LoggedDecisionRow {
  performed_at: Date | string;
}

/**
 * The membership change and its log entry in one statement: PostgreSQL runs a data-modifying
 * WITH as a whole, so a failing log insert leaves the application as it was. No pending request,
 * no row, no entry.
 */
export function acceptTeamRequestQuery(
  actorId: number,
  storeId: number,
  userId: number,
): SqlQuery<LoggedDecisionRow> {
  return {
    sql: `with accepted as (
            update store_team_memberships set status = ?, joined_at = now()
             where store_id = ? and user_id = ? and status = ?
            returning store_id, user_id)
          insert into store_log_entries (store_id, action_type, actor_id, target_id)
          select store_id, ?, ?, user_id from accepted
          returning performed_at`,
    params: [
      StoreTeamStatus.Member,
      storeId,
      userId,
      StoreTeamStatus.Applied,
      StoreLogAction.RequestApproved,
      actorId,
    ],
  };
}

/** As `acceptTeamRequestQuery`: the application goes, the log records who declined it. */
export function declineTeamRequestQuery(
  actorId: number,
  storeId: number,
  userId: number,
): SqlQuery<LoggedDecisionRow> {
  return {
    sql: `with declined as (
            delete from store_team_memberships
             where store_id = ? and user_id = ? and status = ?
            returning store_id, user_id)
          insert into store_log_entries (store_id, action_type, actor_id, target_id)
          select store_id, ?, ?, user_id from declined
          returning performed_at`,
    params: [storeId, userId, StoreTeamStatus.Applied, StoreLogAction.RequestDeclined, actorId],
  };
}
