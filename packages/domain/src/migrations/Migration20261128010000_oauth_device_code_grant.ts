import { Migration } from '@mikro-orm/migrations';

const KNOWN = 'oauth_clients_grant_types_known';

/**
 * The device authorization grant (RFC 8628) joins the grant types a client may be registered
 * for: the check constraint on `grant_types` is widened, nothing else changes. A client keeps
 * needing authorization_code and a redirect URI (docs/oauth.md §12.1). The previous release reads
 * such a row (it reads grant types as plain strings) and refuses the device grant at its token
 * endpoint (unsupported_grant_type).
 */
export class Migration20261128010000_oauth_device_code_grant extends Migration {
  override readonly name = 'Migration20261128010000_oauth_device_code_grant';

  override up(): void {
    // A lock that must not queue behind a long transaction (as in the migrations before). Local:
    // the pooled connection keeps no limit. `not valid`: no scan under the exclusive lock (the
    // rows there passed the narrower check); Migration20261128020000 validates it.
    this.addSql(`set local lock_timeout = '5s'`);
    this.addSql(`set local statement_timeout = '30s'`);
    this.addSql(`alter table "oauth_clients" drop constraint "${KNOWN}"`);
    this.addSql(
      `alter table "oauth_clients" add constraint "${KNOWN}" check (grant_types <@ array['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']::text[]) not valid`,
    );
  }

  override down(): void {
    this.addSql(`alter table "oauth_clients" drop constraint "${KNOWN}"`);
    this.addSql(
      `alter table "oauth_clients" add constraint "${KNOWN}" check (grant_types <@ array['authorization_code', 'refresh_token']::text[])`,
    );
  }
}
