import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  BananaListSchema,
  ConversationMessageSchema,
  ConversationMessagesQuerySchema,
  ConversationReadStateSchema,
  ConversationSchema,
  ForumPostHideStateSchema,
  ForumPostSchema,
  ForumThreadPostsQuerySchema,
  ReportSchema,
  ThreadIdParamsSchema,
} from './index.ts';

const T = '2026-11-22T04:53:00.000Z';
const stub = { id: 7, name: 'Ada', avatar: null, isSleeping: false };
const reportUser = { ...stub, mail: 'ada@example.org', lastName: 'Lovelace' };
const hide = { reason: 'Insult', moderator: stub, hiddenAt: T };

const cases: [string, TSchema, unknown[], unknown[]][] = [
  [
    'ForumPost',
    ForumPostSchema,
    [
      { id: 1, author: stub, createdAt: T, body: 'Hi', isHidden: false, hide: null },
      { id: 2, author: null, createdAt: T, body: null, isHidden: true, hide },
    ],
    [{ id: 1, author: stub, createdAt: T, isHidden: false, hide: null }],
  ],
  [
    'ForumPostHideState with a deleted moderator',
    ForumPostHideStateSchema,
    [{ postId: 1, isHidden: true, hide: { ...hide, moderator: null } }],
    [{ postId: 1, isHidden: true, hide: { reason: 'x', hiddenAt: T } }],
  ],
  [
    'ForumThreadPostsQuery',
    ForumThreadPostsQuerySchema,
    [{}, { limit: 1, offset: 0 }, { limit: 100 }],
    [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { page: 1 }],
  ],
  ['ThreadIdParams', ThreadIdParamsSchema, [{ threadId: '12' }], [{ threadId: '012' }]],
  [
    'Conversation',
    ConversationSchema,
    [{ id: 1, name: null, createdAt: T, members: [stub], hasUnread: true, lastReadAt: null }],
    [{ id: 1, name: null, createdAt: T, members: [stub], hasUnread: true }],
  ],
  [
    'ConversationMessage',
    ConversationMessageSchema,
    [
      { id: 1, body: 'Hi', sentAt: T, authorId: 7, author: stub },
      { id: 2, body: 'Hi', sentAt: T, authorId: null, author: null },
    ],
    [{ id: 1, body: 'Hi', sentAt: T, authorId: 7 }],
  ],
  [
    'ConversationMessagesQuery',
    ConversationMessagesQuerySchema,
    [{}, { limit: 200, offset: 10 }],
    [{ limit: 0 }, { limit: 201 }, { offset: -1 }],
  ],
  [
    'ConversationReadState',
    ConversationReadStateSchema,
    [{ conversationId: 1, hasUnread: false, lastReadAt: T }],
    [{ conversationId: 0, hasUnread: false, lastReadAt: T }],
  ],
  [
    'BananaList',
    BananaListSchema,
    [[], [{ message: 'Thanks', user: stub, time: T }]],
    [[{ message: 'Thanks', time: T }]],
  ],
  [
    'Report with a deleted reporter',
    ReportSchema,
    [
      {
        id: 1,
        message: '',
        reason: '',
        reportedAt: T,
        store: null,
        reporter: null,
        reported: reportUser,
        forumThreadId: null,
        status: 'reports.statuses.to_do',
        consequence: null,
        reminderAt: null,
        reportedRegionId: null,
      },
    ],
    [],
  ],
];

describe.each(cases)('%s', (_name, schema, valid, invalid) => {
  it.each(valid.map((value, i) => [i, value] as const))('accepts example %i', (_i, value) => {
    expect([...Value.Errors(schema, value)]).toEqual([]);
  });
  if (invalid.length > 0) {
    it.each(invalid.map((value, i) => [i, value] as const))('refuses example %i', (_i, value) => {
      expect(Value.Check(schema, value)).toBe(false);
    });
  }
});
