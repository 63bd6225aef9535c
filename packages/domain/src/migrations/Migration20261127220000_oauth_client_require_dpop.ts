import { Migration } from '@mikro-orm/migrations';

/**
 * A per-client setting of the authorization server (OAuthClientEntity): `require_dpop`
 * (RFC 9449 5.2, `dpop_bound_access_tokens`). A constant default: existing clients, and
 * those the previous release creates, keep sending plain requests.
 */
export class Migration20261127220000_oauth_client_require_dpop extends Migration {
  override readonly name = 'Migration20261127220000_oauth_client_require_dpop';

  override up(): void {
    // A brief lock that must not queue behind a long transaction (as in the migration before).
    this.addSql(`set local lock_timeout = '5s'`);
    this.addSql(`set local statement_timeout = '30s'`);
    this.addSql(
      `alter table "oauth_clients" add column "require_dpop" boolean not null default false`,
    );
  }

  override down(): void {
    this.addSql(`alter table "oauth_clients" drop column "require_dpop"`);
  }
}
