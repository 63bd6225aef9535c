import { Migration } from '@mikro-orm/migrations';

const CHECKS = ['oauth_clients_scopes_known', 'oauth_clients_grant_types_known'];

/**
 * The two checks the migrations before this one widened were added `not valid`, so that no scan
 * ran under their exclusive lock. Validated here, in a transaction of its own: the scan holds only
 * a lock that lets reads and writes of the clients go on.
 */
export class Migration20261128020000_oauth_client_checks_validated extends Migration {
  override readonly name = 'Migration20261128020000_oauth_client_checks_validated';

  override up(): void {
    this.addSql(`set local lock_timeout = '5s'`);
    this.addSql(`set local statement_timeout = '30s'`);
    for (const check of CHECKS) {
      this.addSql(`alter table "oauth_clients" validate constraint "${check}"`);
    }
  }

  override down(): void {
    // Nothing to undo: a validated check is the same check.
  }
}
