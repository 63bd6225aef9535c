import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import {
  mayHideForumPost,
  mayModerateForum,
  mayReadForumThread,
  mayRestoreForumPost,
  maySeeHiddenForumPostBody,
} from './forum.permissions.ts';
import { ALL_ROLES, NO_ROLE, forEveryActor } from './test-support/actor-matrix.ts';

const moderationRows = [
  ...forEveryActor('no moderation duty (ambassador elsewhere)', { holdsModerationDuty: false }, [
    Role.Orga,
  ]),
  ...forEveryActor('holds the moderation duty', { holdsModerationDuty: true }, ALL_ROLES),
];

describe.each([
  ['mayModerateForum', mayModerateForum],
  ['mayRestoreForumPost', mayRestoreForumPost],
  ['maySeeHiddenForumPostBody', maySeeHiddenForumPostBody],
] as const)('%s', (_name, rule) => {
  it.each(moderationRows)('%s', (_who, actor, facts, expected) => {
    expect(rule(actor, facts)).toBe(expected);
  });
});

describe('mayRestoreForumPost ignores the hiding option', () => {
  it.each([
    ...forEveryActor(
      'moderator, hiding off',
      { holdsModerationDuty: true, allowHidingInForum: false },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'no duty, hiding off',
      { holdsModerationDuty: false, allowHidingInForum: false },
      [Role.Orga],
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayRestoreForumPost(actor, facts)).toBe(expected);
  });
});

describe('mayHideForumPost', () => {
  it.each([
    ...forEveryActor(
      'moderator, hiding allowed',
      { holdsModerationDuty: true, allowHidingInForum: true },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'no duty, hiding allowed',
      { holdsModerationDuty: false, allowHidingInForum: true },
      [Role.Orga],
    ),
    ...forEveryActor(
      'moderator, hiding off',
      { holdsModerationDuty: true, allowHidingInForum: false },
      NO_ROLE,
    ),
    ...forEveryActor(
      'no duty, hiding off',
      { holdsModerationDuty: false, allowHidingInForum: false },
      NO_ROLE,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayHideForumPost(actor, facts)).toBe(expected);
  });
});

describe('mayReadForumThread', () => {
  const reader = {
    holdsModerationDuty: false,
    isRegionMember: false,
    isRegionAmbassador: false,
  };
  it.each([
    ...forEveryActor(
      'general forum, member',
      { ...reader, isAmbassadorForum: false, isRegionMember: true },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'general forum, ambassador',
      { ...reader, isAmbassadorForum: false, isRegionAmbassador: true },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'general forum, moderator',
      { ...reader, isAmbassadorForum: false, holdsModerationDuty: true },
      ALL_ROLES,
    ),
    ...forEveryActor('general forum, outsider', { ...reader, isAmbassadorForum: false }, [
      Role.Orga,
    ]),
    ...forEveryActor(
      'ambassador forum, member',
      { ...reader, isAmbassadorForum: true, isRegionMember: true },
      [Role.Orga],
    ),
    ...forEveryActor(
      'ambassador forum, ambassador',
      { ...reader, isAmbassadorForum: true, isRegionAmbassador: true },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'ambassador forum, moderator',
      { ...reader, isAmbassadorForum: true, holdsModerationDuty: true },
      ALL_ROLES,
    ),
    ...forEveryActor('ambassador forum, outsider', { ...reader, isAmbassadorForum: true }, [
      Role.Orga,
    ]),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayReadForumThread(actor, facts)).toBe(expected);
  });
});
