import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

/** A platform mailbox: a personal one (no region) or the mailbox of a region or working group. */
export const MailboxEntity = defineEntity({
  name: 'Mailbox',
  tableName: 'mailboxes',
  properties: {
    id: identityId(),
    name: p.string().length(120).unique(),
    region: () => p.manyToOne(RegionEntity).ref().nullable().deleteRule('set null').index(),
    members: () => p.oneToMany(MailboxMemberEntity).mappedBy('mailbox').orphanRemoval(),
  },
});
export type MailboxEntity = InferEntity<typeof MailboxEntity>;

export const MailboxMemberEntity = defineEntity({
  name: 'MailboxMember',
  tableName: 'mailbox_members',
  properties: {
    mailbox: () => p.manyToOne(MailboxEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
  },
  indexes: [{ name: 'mailbox_members_user_id_index', properties: ['user'] }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type MailboxMemberEntity = InferEntity<typeof MailboxMemberEntity>;

export const MailEntity = defineEntity({
  name: 'Mail',
  tableName: 'mails',
  properties: {
    id: identityId(),
    mailbox: () => p.manyToOne(MailboxEntity).ref().deleteRule('cascade'),
    // 1 inbox, 2 sent, 3 trash.
    folder: p.smallint().default(1).check('folder >= 1 and folder <= 3'),
    senderMail: p.string().length(255),
    senderName: p.string().length(255).nullable(),
    recipientMail: p.text(),
    recipientName: p.text().nullable(),
    recipientCount: p.integer().default(1).check('recipient_count >= 0'),
    subject: p.text().default(''),
    body: p.text().default(''),
    hasAttachments: p.boolean().default(false),
    sentAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [
    {
      name: 'mails_mailbox_id_sent_at_index',
      columns: [{ name: 'mailbox_id' }, { name: 'sent_at', sort: 'DESC' }],
    },
  ],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type MailEntity = InferEntity<typeof MailEntity>;
