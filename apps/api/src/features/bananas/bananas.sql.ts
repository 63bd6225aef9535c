import { type Role, WellKnownUnit, type SqlQuery } from '@foodshare/domain';
import type { Banana, BananaList, UserStub } from '@foodshare/schemas';
import type { Page } from '../../shared/page-query.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

export interface GiveFactsRow {
  role: Role;
  verified: boolean;
  already_given: boolean;
  sender: UserStub;
}

/** The active recipient, whether the sender gave them one already, and the sender's stub. */
export function giveFactsQuery(recipientId: number, senderId: number): SqlQuery<GiveFactsRow> {
  return {
    sql: `select r.role, r.verified,
                 exists (select 1 from bananas b
                          where b.recipient_id = r.id and b.sender_id = s.id) as already_given,
                 ${userStubJson('s')} as sender
            from users r, users s
           where r.id = ? and r.activated and s.id = ?`,
    params: [recipientId, senderId],
  };
}

interface GivenBananaRow {
  message: string;
  created_at: string;
}

/**
 * The unique (recipient, sender) constraint decides between simultaneous gives: the loser
 * inserts nothing, so no row.
 */
export function insertBananaQuery(
  recipientId: number,
  senderId: number,
  message: string,
): SqlQuery<GivenBananaRow> {
  return {
    sql: `insert into bananas (recipient_id, sender_id, message) values (?, ?, ?)
          on conflict (recipient_id, sender_id) do nothing
          returning message, created_at`,
    params: [recipientId, senderId, message],
  };
}

export function givenBananaOf(row: GivenBananaRow, sender: UserStub): Banana {
  return { message: row.message, user: sender, time: isoTimestamp(row.created_at) };
}

export function itSupportAdminQuery(userId: number): SqlQuery<{ is_it_support_admin: boolean }> {
  return {
    sql: `select exists (select 1 from region_admins where region_id = ? and user_id = ?)
                   as is_it_support_admin`,
    params: [WellKnownUnit.ItSupport, userId],
  };
}

export function deleteBananaQuery(recipientId: number, senderId: number): SqlQuery<{ id: number }> {
  return {
    sql: 'delete from bananas where recipient_id = ? and sender_id = ? returning id',
    params: [recipientId, senderId],
  };
}

interface ReceivedBananasRow {
  bananas: { message: string; user: UserStub; time: string }[];
}

/** One page of the bananas an active user received, each with its sender; no row: no user. */
export function receivedBananasQuery(userId: number, page: Page): SqlQuery<ReceivedBananasRow> {
  return {
    sql: `select coalesce((
                   select json_agg(p.banana order by p.created_at desc, p.id desc)
                     from (select json_build_object(
                                    'message', b.message, 'user', ${userStubJson('s')},
                                    'time', b.created_at) as banana,
                                  b.created_at, b.id
                             from bananas b join users s on s.id = b.sender_id
                            where b.recipient_id = u.id
                            order by b.created_at desc, b.id desc
                            limit ? offset ?) p), '[]'::json) as bananas
            from users u
           where u.id = ? and u.activated`,
    params: [page.limit, page.offset, userId],
  };
}

export function receivedBananasOf(row: ReceivedBananasRow): BananaList {
  return row.bananas.map((banana) => ({ ...banana, time: isoTimestamp(banana.time) }));
}
