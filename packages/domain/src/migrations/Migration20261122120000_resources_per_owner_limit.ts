import { Migration } from '@mikro-orm/migrations';

/**
 * At most 10 resources per user (docs/domain.md §3.12), in the database so that every code path
 * that adds a resource or moves one to another owner keeps to it. An advisory lock per owner
 * serialises concurrent additions. The trigger SQL is what ResourceEntity's `triggers` generate, so
 * the schema diff stays empty.
 */
export class Migration20261122120000_resources_per_owner_limit extends Migration {
  override readonly name = 'Migration20261122120000_resources_per_owner_limit';

  override up(): void {
    this.addSql(
      `create or replace function "resources_resources_per_owner_limit_fn"() returns trigger as $$ begin if tg_op = 'UPDATE' and new.owner_id = old.owner_id then return new; end if; perform pg_advisory_xact_lock(hashtext('resources_per_owner'), new.owner_id); if (select count(*) from resources where owner_id = new.owner_id) >= 10 then raise exception 'a user has at most 10 resources' using errcode = 'check_violation', constraint = 'resources_per_owner_limit'; end if; return new; end; $$ language plpgsql`,
    );
    this.addSql(
      `create trigger "resources_per_owner_limit" BEFORE INSERT OR UPDATE on "resources" for each ROW execute function "resources_resources_per_owner_limit_fn"()`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "resources_per_owner_limit" on "resources"`);
    this.addSql(`drop function if exists "resources_resources_per_owner_limit_fn"()`);
  }
}
