import { defineEntity, p, type InferEntity, type TriggerDef } from '@mikro-orm/core';

/**
 * The version of everything the search index reads (docs/design.md §3.12): the sum of
 * `version` over all rows, raised by one in every transaction that writes a table the index
 * reads. A cached index whose version equals the current sum was built from the very rows that
 * are committed now.
 *
 * One row per PostgreSQL backend, so that two writing transactions never wait for one counter
 * row (a backend runs one transaction at a time); the sum is MVCC-consistent, so a snapshot
 * sees a larger sum exactly when it sees more committed writes. Row 0 keeps the counts of
 * backends that have gone (the fold below), so the table stays as small as the number of live
 * connections.
 */
export const SearchIndexVersionEntity = defineEntity({
  name: 'SearchIndexVersion',
  tableName: 'search_index_versions',
  properties: {
    backend: p.integer().primary().autoincrement(false),
    version: p.bigint('number').default(0),
  },
});
export type SearchIndexVersionEntity = InferEntity<typeof SearchIndexVersionEntity>;

/**
 * The schema generator compares a trigger's stored body with its definition as one line: written
 * on several lines here for reading, kept on one.
 */
function oneLine(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

/** Any constant: only this fold takes it, and only for the writing transaction. */
const FOLD_LOCK = 731_055_001;

/**
 * Raises this backend's count once per transaction (a later commit only has to change the sum;
 * raising one row again and again in one transaction, as a bulk insert of users would row by
 * row, makes each update walk all the row's earlier versions), and then, in one transaction in
 * a hundred, folds the rows of backends that have gone into row 0. The fold never waits: it
 * runs only under an advisory lock nobody else waits for, and skips rows another transaction
 * holds, so it cannot deadlock with the writes around it. Deleting rows and adding their sum to
 * row 0 in one statement leaves the total unchanged. The migration holds these bodies as text:
 * a change here needs a migration of its own (the schema test fails until there is one).
 */
const BUMP = `if current_setting('search_index_versions.raised_by', true)
     is distinct from txid_current()::text then
  perform set_config('search_index_versions.raised_by', txid_current()::text, true);
  insert into search_index_versions as v (backend, version) values (pg_backend_pid(), 1)
    on conflict (backend) do update set version = v.version + 1;
  if random() < 0.01 and pg_try_advisory_xact_lock(${FOLD_LOCK}) then
    with gone as (
      delete from search_index_versions
       where backend in (select s.backend from search_index_versions s
                          where s.backend <> 0
                            and not exists (select 1 from pg_stat_activity a where a.pid = s.backend)
                            for update skip locked)
      returning version)
    insert into search_index_versions as v (backend, version)
    select 0, sum(version) from gone having count(*) > 0
    on conflict (backend) do update set version = v.version + excluded.version;
  end if;
end if;`;

/**
 * For each table the search index reads: every writing statement raises the version. Not on
 * TRUNCATE: the schema generator cannot see truncate triggers, and nothing truncates these
 * tables of a running platform.
 */
export const SEARCH_INDEX_VERSION_BODY = oneLine(`${BUMP}
return null;`);

/** The trigger of either kind, after every insert, update and delete. */
function versionTrigger(forEach: 'statement' | 'row', body: string): TriggerDef {
  return {
    name: 'search_index_version',
    timing: 'after',
    events: ['insert', 'update', 'delete'],
    forEach,
    body,
  };
}

export const SEARCH_INDEX_VERSION_TRIGGER = versionTrigger('statement', SEARCH_INDEX_VERSION_BODY);

/**
 * The users row changes often in ways the index never shows (the last login on every sign-in):
 * only a change to a column the index reads, or a user added or removed, raises the version.
 */
const USER_COLUMNS_READ = [
  'first_name',
  'avatar_upload_id',
  'sleeping',
  'activated',
  'verified',
  'home_region_id',
  'role',
];

export const USERS_SEARCH_INDEX_VERSION_BODY =
  oneLine(`if tg_op = 'UPDATE' and (${USER_COLUMNS_READ.map((c) => `old.${c}`).join(', ')})
     is not distinct from (${USER_COLUMNS_READ.map((c) => `new.${c}`).join(', ')}) then
  return null;
end if;
${BUMP}
return null;`);

export const USERS_SEARCH_INDEX_VERSION_TRIGGER = versionTrigger(
  'row',
  USERS_SEARCH_INDEX_VERSION_BODY,
);
