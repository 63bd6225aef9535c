import { Migration } from '@mikro-orm/migrations';

/**
 * What a client may register to be shown on the consent page (OAuthClientEntity): its logo,
 * home page, privacy policy and terms of service. Nullable, no default: the previous release
 * neither reads nor writes them, and existing clients simply have none.
 */
export class Migration20261127150000_oauth_client_display_uris extends Migration {
  override readonly name = 'Migration20261127150000_oauth_client_display_uris';

  override up(): void {
    // Adding nullable columns takes a brief lock, which must not queue behind a long transaction
    // and stall every query on the table meanwhile. Local: the pooled connection keeps no limit.
    this.addSql(`set local lock_timeout = '5s'`);
    this.addSql(`set local statement_timeout = '30s'`);
    this.addSql(
      `alter table "oauth_clients" add column "logo_uri" varchar(2000) null, add column "client_uri" varchar(2000) null, add column "policy_uri" varchar(2000) null, add column "tos_uri" varchar(2000) null`,
    );
  }

  override down(): void {
    this.addSql(
      `alter table "oauth_clients" drop column "logo_uri", drop column "client_uri", drop column "policy_uri", drop column "tos_uri"`,
    );
  }
}
