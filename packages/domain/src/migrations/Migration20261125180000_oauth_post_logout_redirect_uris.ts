import { Migration } from '@mikro-orm/migrations';

/**
 * `oauth_clients.post_logout_redirect_uris`: where OpenID Connect RP-Initiated Logout may send a
 * user back after logout (OAuthClientEntity). Existing clients get none, so logging out through
 * them ends on the server's own page until an administrator registers one.
 */
export class Migration20261125180000_oauth_post_logout_redirect_uris extends Migration {
  override readonly name = 'Migration20261125180000_oauth_post_logout_redirect_uris';

  override up(): void {
    this.addSql(
      `alter table "oauth_clients" add column "post_logout_redirect_uris" text[] not null default '{}'`,
    );
  }

  override down(): void {
    this.addSql(`alter table "oauth_clients" drop column "post_logout_redirect_uris"`);
  }
}
