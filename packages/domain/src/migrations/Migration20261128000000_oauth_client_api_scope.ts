import { Migration } from '@mikro-orm/migrations';

const KNOWN_BEFORE = `array['openid', 'profile', 'email', 'regions']::text[]`;
const KNOWN_NOW = `array['openid', 'profile', 'email', 'regions', 'api']::text[]`;

/**
 * The scope `api` (docs/oauth.md §11): a client an admin allowed it may have tokens for the REST
 * API. Only widens the check of known scopes, so every row of the previous release still passes,
 * and that release, which never writes `api`, passes the new check.
 */
export class Migration20261128000000_oauth_client_api_scope extends Migration {
  override readonly name = 'Migration20261128000000_oauth_client_api_scope';

  override up(): void {
    // A brief lock that must not queue behind a long transaction (as in the migrations before).
    this.addSql(`set local lock_timeout = '5s'`);
    this.addSql(`set local statement_timeout = '30s'`);
    this.addSql(`alter table "oauth_clients" drop constraint "oauth_clients_scopes_known"`);
    // `not valid`: no scan under the exclusive lock (the rows there passed the narrower check);
    // every row written from now on is checked, and the next migrations validate it.
    this.addSql(
      `alter table "oauth_clients" add constraint "oauth_clients_scopes_known" check (scopes <@ ${KNOWN_NOW}) not valid`,
    );
  }

  override down(): void {
    this.addSql(`alter table "oauth_clients" drop constraint "oauth_clients_scopes_known"`);
    this.addSql(
      `alter table "oauth_clients" add constraint "oauth_clients_scopes_known" check (scopes <@ ${KNOWN_BEFORE})`,
    );
  }
}
