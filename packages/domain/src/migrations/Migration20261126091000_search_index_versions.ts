import { Migration } from '@mikro-orm/migrations';

// The trigger bodies as the entity's definitions had them when this migration was written,
// as text: a later change of those definitions needs a migration of its own.
const BODY = `if current_setting('search_index_versions.raised_by', true) is distinct from txid_current()::text then perform set_config('search_index_versions.raised_by', txid_current()::text, true); insert into search_index_versions as v (backend, version) values (pg_backend_pid(), 1) on conflict (backend) do update set version = v.version + 1; if random() < 0.01 and pg_try_advisory_xact_lock(731055001) then with gone as ( delete from search_index_versions where backend in (select s.backend from search_index_versions s where s.backend <> 0 and not exists (select 1 from pg_stat_activity a where a.pid = s.backend) for update skip locked) returning version) insert into search_index_versions as v (backend, version) select 0, sum(version) from gone having count(*) > 0 on conflict (backend) do update set version = v.version + excluded.version; end if; end if; return null;`;
const USERS_BODY = `if tg_op = 'UPDATE' and (old.first_name, old.avatar_upload_id, old.sleeping, old.activated, old.verified, old.home_region_id, old.role) is not distinct from (new.first_name, new.avatar_upload_id, new.sleeping, new.activated, new.verified, new.home_region_id, new.role) then return null; end if; if current_setting('search_index_versions.raised_by', true) is distinct from txid_current()::text then perform set_config('search_index_versions.raised_by', txid_current()::text, true); insert into search_index_versions as v (backend, version) values (pg_backend_pid(), 1) on conflict (backend) do update set version = v.version + 1; if random() < 0.01 and pg_try_advisory_xact_lock(731055001) then with gone as ( delete from search_index_versions where backend in (select s.backend from search_index_versions s where s.backend <> 0 and not exists (select 1 from pg_stat_activity a where a.pid = s.backend) for update skip locked) returning version) insert into search_index_versions as v (backend, version) select 0, sum(version) from gone having count(*) > 0 on conflict (backend) do update set version = v.version + excluded.version; end if; end if; return null;`;

/** Every table the search index statement reads (search-index-cache.routes.test.ts checks it). */
const TABLES_READ = [
  'regions',
  'region_memberships',
  'region_admins',
  'stores',
  'store_chains',
  'store_team_memberships',
  'food_share_points',
  'conversations',
  'conversation_members',
  'messages',
  'buddies',
  'polls',
  'poll_votes',
  'events',
  'event_invitations',
  'mails',
  'mailbox_members',
  'forum_threads',
  'forum_posts',
];

/** A trigger's function as the schema generator writes it for the entity's definition. */
function triggerFunction(table: string, body: string): string {
  return `create or replace function "${table}_search_index_version_fn"() returns trigger as $$ begin ${body} end; $$ language plpgsql`;
}

/**
 * The version of the search index's data (docs/design.md §3.12): a counter table and a trigger
 * on each table the index reads, so that a cached index can be told current with one read.
 */
export class Migration20261126091000_search_index_versions extends Migration {
  override readonly name = 'Migration20261126091000_search_index_versions';

  override up(): void {
    this.addSql(
      `create table "search_index_versions" ("backend" int not null, "version" bigint not null default '0', primary key ("backend"))`,
    );
    for (const table of TABLES_READ) {
      this.addSql(triggerFunction(table, BODY));
      this.addSql(
        `create trigger "search_index_version" AFTER INSERT OR UPDATE OR DELETE on "${table}" for each STATEMENT execute function "${table}_search_index_version_fn"()`,
      );
    }
    this.addSql(triggerFunction('users', USERS_BODY));
    this.addSql(
      `create trigger "search_index_version" AFTER INSERT OR UPDATE OR DELETE on "users" for each ROW execute function "users_search_index_version_fn"()`,
    );
  }

  override down(): void {
    for (const table of [...TABLES_READ, 'users']) {
      this.addSql(`drop trigger if exists "search_index_version" on "${table}"`);
      this.addSql(`drop function if exists "${table}_search_index_version_fn"()`);
    }
    this.addSql(`drop table if exists "search_index_versions"`);
  }
}
