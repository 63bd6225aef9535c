import {
  ConversationEntity,
  ConversationMemberEntity,
  MessageEntity,
} from '../entities/conversation.entity.ts';
import type { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import type { DemoClock } from './demo-clock.ts';
import type { DemoUsers } from './demo-people.ts';

/**
 * alice's group conversation with bob and carla about a pickup, and her chat with kim.
 * Returns the group conversation.
 */
export function createConversations(
  em: EntityManager,
  clock: DemoClock,
  users: DemoUsers,
): ConversationEntity {
  const conversation = createPickupConversation(em, clock, users);
  createKamChat(em, clock, users);
  return conversation;
}

function createPickupConversation(
  em: EntityManager,
  clock: DemoClock,
  users: DemoUsers,
): ConversationEntity {
  const { alice, bob, carla } = users;
  const { ago } = clock;
  const conversation = em.create(ConversationEntity, {
    name: 'Abholung Samstag',
    createdAt: ago(4),
  });
  const messages: [UserEntity, Date, string][] = [
    [
      alice,
      ago(3, 4),
      'Hallo Bob, hallo Carla! Wer kann am Samstag bei der Abholung im Beispiel-Markt helfen?',
    ],
    [bob, ago(3, 2), 'Ich kann ab 18 Uhr, vorher bin ich noch in Beispieldorf unterwegs.'],
    [carla, ago(2, 5), 'Ich komme gern mit, sobald mein Quiz bestätigt ist!'],
    [alice, ago(1, 3), 'Prima, dann treffen wir uns um 18:15 Uhr am Hintereingang.'],
  ];
  for (const [author, sentAt, body] of messages) {
    em.create(MessageEntity, { conversation, author, body, sentAt });
  }
  // alice has read everything; bob read up to his own reply; carla has not opened it since.
  member(em, conversation, alice, { unread: false, lastReadAt: ago(1, 3), joinedAt: ago(4) });
  member(em, conversation, bob, { unread: true, lastReadAt: ago(3, 2), joinedAt: ago(4) });
  member(em, conversation, carla, { unread: true, lastReadAt: null, joinedAt: ago(4) });
  return conversation;
}

function createKamChat(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, kim } = users;
  const { ago } = clock;
  const kamChat = em.create(ConversationEntity, { createdAt: ago(15) });
  em.create(MessageEntity, {
    conversation: kamChat,
    author: kim,
    body: 'Die Zentrale von Beispiel-Markt hat geantwortet: Eure Filiale darf auch sonntags abgeholt werden.',
    sentAt: ago(14),
  });
  em.create(MessageEntity, {
    conversation: kamChat,
    author: alice,
    body: 'Super, danke! Ich trage die Sonntage in den Kalender ein.',
    sentAt: ago(13),
  });
  member(em, kamChat, alice, { unread: false, lastReadAt: ago(13), joinedAt: ago(15) });
  member(em, kamChat, kim, { unread: false, lastReadAt: ago(13), joinedAt: ago(15) });
}

function member(
  em: EntityManager,
  conversation: ConversationEntity,
  user: UserEntity,
  state: { unread: boolean; lastReadAt: Date | null; joinedAt: Date },
): void {
  em.create(ConversationMemberEntity, { conversation, user, ...state });
}
