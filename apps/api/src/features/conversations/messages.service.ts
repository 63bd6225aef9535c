import {
  type Actor,
  type EntityManager,
  maySendMessage,
  mayReadConversation,
} from '@foodshare/domain';
import {
  type ConversationMessageList,
  type Message,
  type MessageBody,
  trimSpace,
  type UserStub,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { loadConversationFacts, notAMember } from './conversation-access.ts';
import type { PendingBody } from '../../shared/pending-body.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

const DEFAULT_MESSAGES_LIMIT = 50;

interface MessageRow {
  id: number;
  body: string;
  sent_at: string;
  author_id: number;
}

function messageOf(row: MessageRow): Message {
  return { id: row.id, body: row.body, sentAt: isoTimestamp(row.sent_at), authorId: row.author_id };
}

export interface SentMessage {
  message: Message;
  /** false when a `clientKey` named a message this sender had stored already. */
  created: boolean;
}

/**
 * Stores the message and marks the conversation unread for every other member and read for
 * the sender, in one transaction: a failure leaves neither a message nobody is told about nor
 * an unread mark without a message.
 */
export function sendMessage(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  pending: PendingBody<MessageBody>,
): Promise<SentMessage> {
  return em.transactional(async (tx) => {
    const facts = await loadConversationFacts(tx, actor, conversationId);
    if (!maySendMessage(actor, facts)) throw notAMember();
    const input = pending.validate();
    const body = trimSpace(input.body);
    const clientKey = input.clientKey ?? null;
    // The unique (conversation, author, client key) constraint makes a retry race-safe: the
    // second insert waits for the first and then does nothing.
    const inserted = await tx.execute<MessageRow[]>(
      `insert into messages (conversation_id, author_id, body, client_key)
       values (?, ?, ?, ?)
       on conflict (conversation_id, author_id, client_key) do nothing
       returning id, body, sent_at, author_id`,
      [conversationId, actor.id, body, clientKey],
    );
    const row = inserted[0];
    if (!row)
      return {
        message: await storedMessage(tx, actor, conversationId, clientKey, body),
        created: false,
      };
    await tx.execute(
      `update conversation_members
          set unread = (user_id <> ?),
              -- now() is the transaction's start: the sent_at the insert stored.
              last_read_at = case when user_id = ? then now() else last_read_at end
        where conversation_id = ?`,
      [actor.id, actor.id, conversationId],
    );
    return { message: messageOf(row), created: true };
  });
}

async function storedMessage(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  clientKey: string | null,
  body: string,
): Promise<Message> {
  const rows = await em.execute<MessageRow[]>(
    `select id, body, sent_at, author_id from messages
      where conversation_id = ? and author_id = ? and client_key = ?`,
    [conversationId, actor.id, clientKey],
  );
  const row = rows[0];
  // Only a clientKey can make the insert do nothing, and then its row exists.
  if (!row) throw new Error('the message with this client key disappeared');
  // The same key with another text is a client bug; answering with the old message would lose the new one.
  if (row.body !== body) {
    throw Problem.conflict(
      'CLIENT_KEY_REUSED',
      'You sent another message with this clientKey to this conversation already.',
    );
  }
  return messageOf(row);
}

interface ListedMessageRow extends Omit<MessageRow, 'author_id'> {
  author_id: number | null;
  author: UserStub | null;
}

/** Newest first, with the authors, in one query after the membership check. */
export async function listMessages(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  page: { limit?: number | undefined; offset?: number | undefined },
): Promise<ConversationMessageList> {
  const facts = await loadConversationFacts(em, actor, conversationId);
  if (!mayReadConversation(actor, facts)) throw notAMember();
  const rows = await em.execute<ListedMessageRow[]>(
    `select m.id, m.body, m.sent_at, m.author_id, ${userStubJson('u')} as author
       from messages m
       left join users u on u.id = m.author_id
      where m.conversation_id = ?
      order by m.sent_at desc, m.id desc
      limit ? offset ?`,
    [conversationId, page.limit ?? DEFAULT_MESSAGES_LIMIT, page.offset ?? 0],
  );
  return rows.map((row) => ({
    id: row.id,
    body: row.body,
    sentAt: isoTimestamp(row.sent_at),
    authorId: row.author_id,
    author: row.author,
  }));
}
