import { Migration } from '@mikro-orm/migrations';

/**
 * `conversations.last_message_at`: when the newest message was sent. A member's conversations
 * newest first (the search index's chats) were ordered by probing each one's messages for the
 * newest: 300 index probes for a user in 300 conversations, on every page load. Now they are
 * ordered by a column of the conversation row, as the reference platform keeps `last` on its
 * conversations. The `track_last_message` trigger on messages keeps it, whatever writes them;
 * its SQL is what the entity's `triggers` generate, so the schema diff stays empty.
 */
export class Migration20261125120000_conversation_last_message_at extends Migration {
  override readonly name = 'Migration20261125120000_conversation_last_message_at';

  override up(): void {
    this.addSql(`alter table "conversations" add column "last_message_at" timestamptz null`);
    this.addSql(
      `create or replace function "messages_track_last_message_fn"() returns trigger as $$ begin if tg_op = 'INSERT' then update conversations set last_message_at = new.sent_at where id = new.conversation_id and (last_message_at is null or last_message_at < new.sent_at); return null; end if; if tg_op = 'UPDATE' and old.conversation_id = new.conversation_id and old.sent_at = new.sent_at then return null; end if; perform 1 from conversations where id in (old.conversation_id, new.conversation_id) for no key update; update conversations c set last_message_at = (select max(m.sent_at) from messages m where m.conversation_id = c.id) where c.id in (old.conversation_id, new.conversation_id); return null; end; $$ language plpgsql`,
    );
    this.addSql(
      `create trigger "track_last_message" AFTER INSERT OR UPDATE OR DELETE on "messages" for each ROW execute function "messages_track_last_message_fn"()`,
    );
    // The conversations that have messages, from the (conversation_id, sent_at) index.
    this.addSql(
      `update "conversations" c set "last_message_at" = m.last_sent_at
         from (select conversation_id, max(sent_at) as last_sent_at from messages group by 1) m
        where m.conversation_id = c.id`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "track_last_message" on "messages"`);
    this.addSql(`drop function if exists "messages_track_last_message_fn"()`);
    this.addSql(`alter table "conversations" drop column "last_message_at"`);
  }
}
