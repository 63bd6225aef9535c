import { describe, expect, it } from 'vitest';
import {
  mayMarkConversationRead,
  mayReadConversation,
  maySendMessage,
} from './conversation.permissions.ts';
import { ALL_ROLES, NO_ROLE, forEveryActor } from './test-support/actor-matrix.ts';

describe.each([
  ['maySendMessage', maySendMessage],
  ['mayMarkConversationRead', mayMarkConversationRead],
  ['mayReadConversation', mayReadConversation],
] as const)('%s', (_name, rule) => {
  it.each([
    ...forEveryActor('member of the conversation', { isConversationMember: true }, ALL_ROLES),
    ...forEveryActor('not a member', { isConversationMember: false }, NO_ROLE),
  ])('%s', (_who, actor, facts, expected) => {
    expect(rule(actor, facts)).toBe(expected);
  });
});
