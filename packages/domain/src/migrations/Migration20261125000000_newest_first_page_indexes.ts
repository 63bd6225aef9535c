import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes in the order the growing lists are read: a page (newest first, ties broken by id; a
 * store's requests in waiting order) comes straight from the index, so its cost does not grow
 * with the history behind it. Before, a user with 5,000 bananas or 2,000 reports, or a store with
 * 2,000 requests, had every row fetched and sorted for each page of 100.
 */
export class Migration20261125000000_newest_first_page_indexes extends Migration {
  override readonly name = 'Migration20261125000000_newest_first_page_indexes';

  override up(): void {
    this.addSql(
      `create index "bananas_recipient_id_created_at_id_index" on "bananas" ("recipient_id", "created_at" DESC, "id" DESC)`,
    );
    this.addSql(`drop index "reports_reported_id_reported_at_index"`);
    this.addSql(
      `create index "reports_reported_id_reported_at_id_index" on "reports" ("reported_id", "reported_at" DESC, "id" DESC)`,
    );
    this.addSql(`drop index "messages_conversation_id_sent_at_index"`);
    this.addSql(
      `create index "messages_conversation_id_sent_at_id_index" on "messages" ("conversation_id", "sent_at" DESC, "id" DESC)`,
    );
    this.addSql(`drop index "store_log_entries_store_id_performed_at_index"`);
    this.addSql(
      `create index "store_log_entries_store_id_performed_at_id_index" on "store_log_entries" ("store_id", "performed_at" DESC, "id" DESC)`,
    );
    this.addSql(`drop index "store_team_memberships_store_id_status_index"`);
    this.addSql(
      `create index "store_team_memberships_store_id_status_applied_at_index" on "store_team_memberships" ("store_id", "status", "applied_at", "user_id")`,
    );
  }

  override down(): void {
    this.addSql(`drop index "store_team_memberships_store_id_status_applied_at_index"`);
    this.addSql(
      `create index "store_team_memberships_store_id_status_index" on "store_team_memberships" ("store_id", "status")`,
    );
    this.addSql(`drop index "store_log_entries_store_id_performed_at_id_index"`);
    this.addSql(
      `create index "store_log_entries_store_id_performed_at_index" on "store_log_entries" ("store_id", "performed_at" DESC)`,
    );
    this.addSql(`drop index "messages_conversation_id_sent_at_id_index"`);
    this.addSql(
      `create index "messages_conversation_id_sent_at_index" on "messages" ("conversation_id", "sent_at" DESC)`,
    );
    this.addSql(`drop index "reports_reported_id_reported_at_id_index"`);
    this.addSql(
      `create index "reports_reported_id_reported_at_index" on "reports" ("reported_id", "reported_at" DESC)`,
    );
    this.addSql(`drop index "bananas_recipient_id_created_at_id_index"`);
  }
}
