import { Migration } from '@mikro-orm/migrations';

/**
 * `users.tokens_valid_after`: OAuth refresh-token families created before it are revoked at their
 * next use. Triggers set it whenever a user's region memberships or region admin roles change,
 * whichever code path makes the change, so region claims handed to OAuth clients are never stale
 * for longer than one access-token lifetime (docs/domain.md §5.4: joining a region or a change of
 * region admins revokes the user's refresh tokens). The trigger SQL is what the entities'
 * `triggers` generate, so the schema diff stays empty.
 */
export class Migration20261122060000_user_tokens_valid_after extends Migration {
  override readonly name = 'Migration20261122060000_user_tokens_valid_after';

  override up(): void {
    this.addSql(`alter table "users" add column "tokens_valid_after" timestamptz null`);
    // clock_timestamp, not now(): now() is the transaction start, which may precede a family
    // created by another connection while the changing transaction ran.
    this.addSql(
      `create or replace function "region_memberships_revoke_oauth_tokens_fn"() returns trigger as $$ begin if tg_op = 'UPDATE' and old.active = new.active and old.user_id = new.user_id and old.region_id = new.region_id then return null; end if; update users set tokens_valid_after = clock_timestamp() where id in (old.user_id, new.user_id); return null; end; $$ language plpgsql`,
    );
    this.addSql(
      `create trigger "revoke_oauth_tokens" AFTER INSERT OR UPDATE OR DELETE on "region_memberships" for each ROW execute function "region_memberships_revoke_oauth_tokens_fn"()`,
    );
    this.addSql(
      `create or replace function "region_admins_revoke_oauth_tokens_fn"() returns trigger as $$ begin update users set tokens_valid_after = clock_timestamp() where id in (old.user_id, new.user_id); return null; end; $$ language plpgsql`,
    );
    this.addSql(
      `create trigger "revoke_oauth_tokens" AFTER INSERT OR UPDATE OR DELETE on "region_admins" for each ROW execute function "region_admins_revoke_oauth_tokens_fn"()`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "revoke_oauth_tokens" on "region_admins"`);
    this.addSql(`drop function if exists "region_admins_revoke_oauth_tokens_fn"()`);
    this.addSql(`drop trigger if exists "revoke_oauth_tokens" on "region_memberships"`);
    this.addSql(`drop function if exists "region_memberships_revoke_oauth_tokens_fn"()`);
    this.addSql(`alter table "users" drop column "tokens_valid_after"`);
  }
}
