import { Migration } from '@mikro-orm/migrations';
import {
  SEARCH_INDEX_VERSION_BODY,
  USERS_SEARCH_INDEX_VERSION_BODY,
} from '../entities/search-index-version.entity.ts';

/** Every table the search index statement reads (the api's search explain test checks it). */
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
      this.addSql(triggerFunction(table, SEARCH_INDEX_VERSION_BODY));
      this.addSql(
        `create trigger "search_index_version" AFTER INSERT OR UPDATE OR DELETE on "${table}" for each STATEMENT execute function "${table}_search_index_version_fn"()`,
      );
    }
    this.addSql(triggerFunction('users', USERS_SEARCH_INDEX_VERSION_BODY));
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
