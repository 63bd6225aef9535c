import { Migration } from '@mikro-orm/migrations';

/**
 * A per-client setting of the authorization server (OAuthClientEntity): `require_dpop`
 * (RFC 9449 5.2, `dpop_bound_access_tokens`). Existing clients keep sending plain requests.
 */
export class Migration20261127220000_oauth_client_require_dpop extends Migration {
  override readonly name = 'Migration20261127220000_oauth_client_require_dpop';

  override up(): void {
    this.addSql(
      `alter table "oauth_clients" add column "require_dpop" boolean not null default false`,
    );
  }

  override down(): void {
    this.addSql(`alter table "oauth_clients" drop column "require_dpop"`);
  }
}
