import { type Static, Type } from 'typebox';
import { DateTime, Id, MAX_ID, NonBlankText, Nullable } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

export const MESSAGE_BODY_MAX_LENGTH = 10_000;

export const MessageBodySchema = Type.Object(
  {
    // At least one non-space character: a blank message is refused, whatever its length.
    body: NonBlankText({ maxLength: MESSAGE_BODY_MAX_LENGTH }),
    clientKey: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{12}$',
        description:
          'Makes the send idempotent per conversation and sender: a retry returns the stored message',
      }),
    ),
  },
  { title: 'MessageBody', additionalProperties: false },
);
export type MessageBody = Static<typeof MessageBodySchema>;

export const MessageSchema = Type.Object(
  { id: Id(), body: Type.String(), sentAt: DateTime(), authorId: Id() },
  { title: 'Message' },
);
export type Message = Static<typeof MessageSchema>;

/** The caller's own read state of a conversation: read or unread is per member. */
export const ConversationReadStateSchema = Type.Object(
  {
    conversationId: Id(),
    hasUnread: Type.Boolean(),
    lastReadAt: Nullable(DateTime({ description: 'When the caller last marked it read' })),
  },
  { title: 'ConversationReadState' },
);
export type ConversationReadState = Static<typeof ConversationReadStateSchema>;

export const ConversationSchema = Type.Object(
  {
    id: Id(),
    name: Nullable(Type.String()),
    createdAt: DateTime(),
    members: Type.Array(UserStubSchema),
    hasUnread: Type.Boolean({ description: "The caller's own read state" }),
    lastReadAt: Nullable(DateTime()),
  },
  { title: 'Conversation' },
);
export type Conversation = Static<typeof ConversationSchema>;

/** A stored message with its author; both are null once the author's account is deleted. */
export const ConversationMessageSchema = Type.Object(
  {
    id: Id(),
    body: Type.String(),
    sentAt: DateTime(),
    authorId: Nullable(Id()),
    author: Nullable(UserStubSchema),
  },
  { title: 'ConversationMessage' },
);
export type ConversationMessage = Static<typeof ConversationMessageSchema>;

/** Newest first. */
export const ConversationMessageListSchema = Type.Array(ConversationMessageSchema, {
  title: 'ConversationMessageList',
});
export type ConversationMessageList = Static<typeof ConversationMessageListSchema>;

export const CONVERSATION_MESSAGES_MAX_LIMIT = 200;

export const ConversationMessagesQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CONVERSATION_MESSAGES_MAX_LIMIT,
        description: 'Default 50',
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Default 0' })),
  },
  { title: 'ConversationMessagesQuery', additionalProperties: false },
);
export type ConversationMessagesQuery = Static<typeof ConversationMessagesQuerySchema>;
