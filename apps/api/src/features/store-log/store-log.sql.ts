import { type SqlQuery } from '@foodshare/domain';
import type { StoreLogAction } from '@foodshare/domain';
import type { StoreLog, UserStub } from '@foodshare/schemas';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';
import type { StoreLogWindow } from './store-log-window.ts';

export interface StoreLogPage extends StoreLogWindow {
  storeId: number;
  actionTypes: readonly StoreLogAction[];
  limit: number;
  offset: number;
}

interface StoreLogRow {
  performed_at: Date | string;
  action_type: StoreLogAction;
  date_reference: Date | string | null;
  content: string | null;
  reason: string | null;
  actor: UserStub | null;
  target: UserStub | null;
}

/**
 * One page of the log, newest first, with the actor and target stubs, in one query. The
 * (store_id, performed_at desc) and (store_id, action_type, performed_at desc) indexes serve
 * it; the id breaks ties between entries of the same instant, so pages never overlap. The stubs
 * are subqueries rather than joins: PostgreSQL evaluates them after the sort, for the rows of
 * the page only, each by primary key, where a join may hash the whole users table. The action
 * types are one array value, so that the text is the same for every filter and is planned once
 * per connection (docs/benchmarks.md §3).
 */
export function storeLogPageQuery(page: StoreLogPage): SqlQuery<StoreLogRow> {
  return {
    sql: `select l.performed_at, l.action_type, l.date_reference, l.content, l.reason,
                 (select ${userStubJson('a')} from users a where a.id = l.actor_id) as actor,
                 (select ${userStubJson('t')} from users t where t.id = l.target_id) as target
            from store_log_entries l
           where l.store_id = ?
             and l.performed_at >= ?::timestamptz and l.performed_at <= ?::timestamptz
             and l.action_type = any (?::int[])
           order by l.performed_at desc, l.id desc
           limit ? offset ?`,
    params: [
      page.storeId,
      page.from.toISOString(),
      page.to.toISOString(),
      `{${page.actionTypes.join(',')}}`,
      page.limit,
      page.offset,
    ],
  };
}

export function storeLogOf(rows: StoreLogRow[]): StoreLog {
  return rows.map((row) => ({
    performedAt: isoTimestamp(row.performed_at),
    actionType: row.action_type,
    actor: row.actor,
    target: row.target,
    dateReference: row.date_reference === null ? null : isoTimestamp(row.date_reference),
    content: row.content,
    reason: row.reason,
  }));
}
