import { Migration } from '@mikro-orm/migrations';

/**
 * Two per-client settings of the authorization server (OAuthClientEntity):
 * `require_pushed_authorization_requests` (RFC 9126 6; existing clients may still send their
 * requests to /oauth/authorize directly) and `backchannel_logout_uri` (OpenID Connect
 * Back-Channel Logout 1.0; existing clients get none, so nothing is sent until one is registered).
 */
export class Migration20261126100000_oauth_par_and_backchannel_logout extends Migration {
  override readonly name = 'Migration20261126100000_oauth_par_and_backchannel_logout';

  override up(): void {
    this.addSql(
      `alter table "oauth_clients" add column "require_pushed_authorization_requests" boolean not null default false, add column "backchannel_logout_uri" varchar(2000) null`,
    );
  }

  override down(): void {
    this.addSql(
      `alter table "oauth_clients" drop column "require_pushed_authorization_requests", drop column "backchannel_logout_uri"`,
    );
  }
}
