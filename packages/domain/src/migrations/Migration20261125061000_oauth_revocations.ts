import { Migration } from '@mikro-orm/migrations';

/**
 * `oauth_revocations`: the authorization server's revocations (denied access tokens, revoked
 * refresh-token families, client grant cutoffs) kept in PostgreSQL as well as in Redis, so that
 * a Redis that lost its data gets them back and no revoked token works again (OAuthRevocationEntity).
 */
export class Migration20261125061000_oauth_revocations extends Migration {
  override readonly name = 'Migration20261125061000_oauth_revocations';

  override up(): void {
    this.addSql(
      `create table "oauth_revocations" ("key" varchar(300) not null, "value" varchar(100) not null, "expires_at" timestamptz not null, primary key ("key"))`,
    );
    this.addSql(
      `create index "oauth_revocations_expires_at_index" on "oauth_revocations" ("expires_at")`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "oauth_revocations" cascade`);
  }
}
