import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { UserEntity } from './user.entity.ts';
import { orderedIndex } from './ordered-index.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

export const ConversationEntity = defineEntity({
  name: 'Conversation',
  tableName: 'conversations',
  properties: {
    id: identityId(),
    name: p.string().length(200).nullable(),
    createdAt: createdAt(),
    /**
     * When the newest message was sent, null before the first: the order of a member's
     * conversations (the search index's chats), read without probing each conversation's
     * messages. Kept by the messages' `track_last_message` trigger, whoever writes them.
     */
    lastMessageAt: p.datetime().nullable(),
    members: () => p.oneToMany(ConversationMemberEntity).mappedBy('conversation').orphanRemoval(),
  },
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type ConversationEntity = InferEntity<typeof ConversationEntity>;

/** Membership and the member's own read state: read or unread is per member, never per conversation. */
export const ConversationMemberEntity = defineEntity({
  name: 'ConversationMember',
  tableName: 'conversation_members',
  properties: {
    conversation: () => p.manyToOne(ConversationEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    unread: p.boolean().default(false),
    lastReadAt: p.datetime().nullable(),
    joinedAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [{ name: 'conversation_members_user_id_index', properties: ['user'] }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type ConversationMemberEntity = InferEntity<typeof ConversationMemberEntity>;

const LAST_MESSAGE_TRIGGER_BODY = [
  `if tg_op = 'INSERT' then update conversations set last_message_at = new.sent_at where id = new.conversation_id and (last_message_at is null or last_message_at < new.sent_at); return null; end if;`,
  `if tg_op = 'UPDATE' and old.conversation_id = new.conversation_id and old.sent_at = new.sent_at then return null; end if;`,
  `perform 1 from conversations where id in (old.conversation_id, new.conversation_id) for no key update;`,
  `update conversations c set last_message_at = (select max(m.sent_at) from messages m where m.conversation_id = c.id) where c.id in (old.conversation_id, new.conversation_id);`,
  `return null;`,
].join(' ');

export const MessageEntity = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: identityId(),
    conversation: () => p.manyToOne(ConversationEntity).ref().deleteRule('cascade'),
    // Other members keep the conversation when an author's account is deleted.
    author: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    body: p.text().check("body ~ '[^[:space:]]'"),
    sentAt: p.datetime().defaultRaw('now()'),
    // Makes a send idempotent per conversation and sender: a retried request finds the stored message.
    clientKey: p.string().columnType('char(12)').nullable().check("client_key ~ '^[0-9a-f]{12}$'"),
  },
  uniques: [
    {
      name: 'messages_conversation_id_author_id_client_key_unique',
      properties: ['conversation', 'author', 'clientKey'],
    },
  ],
  indexes: [
    {
      // The newest page of a conversation, ties broken by id, straight from the index.
      name: 'messages_conversation_id_sent_at_id_index',
      expression: orderedIndex('"conversation_id", "sent_at" DESC, "id" DESC'),
    },
    { name: 'messages_author_id_index', properties: ['author'] },
  ],
  // conversations.last_message_at follows every insert, move and removal of a message. A new
  // message only ever raises it (concurrent senders wait for each other's row lock, and the
  // re-checked condition keeps the later time); a removal or move locks the conversation
  // first, so the recount in the next statement sees every message committed before it.
  triggers: [
    {
      name: 'track_last_message',
      timing: 'after',
      events: ['insert', 'update', 'delete'],
      body: LAST_MESSAGE_TRIGGER_BODY,
    },
    SEARCH_INDEX_VERSION_TRIGGER,
  ],
});
export type MessageEntity = InferEntity<typeof MessageEntity>;
