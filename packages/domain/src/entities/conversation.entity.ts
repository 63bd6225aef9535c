import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { UserEntity } from './user.entity.ts';
import { orderedIndex } from './ordered-index.ts';

export const ConversationEntity = defineEntity({
  name: 'Conversation',
  tableName: 'conversations',
  properties: {
    id: identityId(),
    name: p.string().length(200).nullable(),
    createdAt: createdAt(),
    members: () => p.oneToMany(ConversationMemberEntity).mappedBy('conversation').orphanRemoval(),
  },
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
});
export type ConversationMemberEntity = InferEntity<typeof ConversationMemberEntity>;

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
});
export type MessageEntity = InferEntity<typeof MessageEntity>;
