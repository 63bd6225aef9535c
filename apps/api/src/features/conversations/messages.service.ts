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
import {
  loadConversationFacts,
  lockConversationForSend,
  notAMember,
} from './conversation-access.ts';
import type { PendingBody } from '../../shared/pending-body.ts';
import { executePrepared, preparedStatement } from '../../shared/prepared-statement.ts';
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

/**
 * Stores the message and marks the conversation unread for every other member and read for
 * the sender, in one transaction: a failure leaves neither a message nobody is told about nor
 * an unread mark without a message. A `clientKey` this sender used in this conversation before
 * names a message already stored: that message is the answer, whatever body came this time
 * (the client is retrying a send whose answer it lost).
 */
export function sendMessage(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  pending: PendingBody<MessageBody>,
): Promise<Message> {
  return em.transactional(async (tx) => {
    const facts = await lockConversationForSend(tx, actor, conversationId);
    if (!maySendMessage(actor, facts)) throw notAMember();
    const input = pending.validate();
    const clientKey = input.clientKey ?? null;
    if (clientKey !== null) {
      const stored = await storedMessage(tx, actor, conversationId, clientKey);
      if (stored) return stored;
    }
    // Sends to this conversation are serialised by the lock above, so a repeated key cannot
    // race past the look-up, and clock_timestamp() (not the transaction's start, which may
    // precede a send that got the lock first) makes sent_at follow the order of the sends.
    // Only member rows that change are written: the sender's read time, and members not yet
    // marked unread.
    const inserted = await tx.execute<MessageRow[]>(
      `with sent as (
         insert into messages (conversation_id, author_id, body, client_key, sent_at)
         values (?, ?, ?, ?, clock_timestamp())
         returning id, body, sent_at, author_id),
       marked as (
         update conversation_members m
            set unread = (m.user_id <> sent.author_id),
                last_read_at = case when m.user_id = sent.author_id then sent.sent_at
                                    else m.last_read_at end
           from sent
          where m.conversation_id = ? and (m.user_id = sent.author_id or not m.unread))
       select id, body, sent_at, author_id from sent`,
      [conversationId, actor.id, trimSpace(input.body), clientKey, conversationId],
    );
    return messageOf(inserted[0]!);
  });
}

async function storedMessage(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  clientKey: string,
): Promise<Message | undefined> {
  const rows = await em.execute<MessageRow[]>(
    `select id, body, sent_at, author_id from messages
      where conversation_id = ? and author_id = ? and client_key = ?`,
    [conversationId, actor.id, clientKey],
  );
  return rows[0] && messageOf(rows[0]);
}

interface ListedMessageRow extends Omit<MessageRow, 'author_id'> {
  author_id: number | null;
  author: UserStub | null;
}

/**
 * A page of messages, newest first, with the authors. Planned once per connection: on the large
 * bench data planning (0.4 ms) cost more than reading the page (0.35 ms).
 */
const MESSAGES_PAGE = preparedStatement(
  'messages_page',
  `select m.id, m.body, m.sent_at, m.author_id, ${userStubJson('u')} as author
     from messages m
     left join users u on u.id = m.author_id
    where m.conversation_id = ?
    order by m.sent_at desc, m.id desc
    limit ? offset ?`,
);

/** Newest first, with the authors, in one query after the membership check. */
export async function listMessages(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  page: { limit?: number | undefined; offset?: number | undefined },
): Promise<ConversationMessageList> {
  const facts = await loadConversationFacts(em, actor, conversationId);
  if (!mayReadConversation(actor, facts)) throw notAMember();
  const rows = await executePrepared<ListedMessageRow>(em, MESSAGES_PAGE, [
    conversationId,
    page.limit ?? DEFAULT_MESSAGES_LIMIT,
    page.offset ?? 0,
  ]);
  return rows.map((row) => ({
    id: row.id,
    body: row.body,
    sentAt: isoTimestamp(row.sent_at),
    authorId: row.author_id,
    author: row.author,
  }));
}
