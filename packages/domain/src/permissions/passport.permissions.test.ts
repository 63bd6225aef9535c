import { describe, expect, it } from 'vitest';
import { mayCreatePassport } from './passport.permissions.ts';
import {
  ACTOR_ID,
  ALL_ROLES,
  NO_ROLE,
  OTHER_USER_ID,
  forEveryActor,
} from './test-support/actor-matrix.ts';

describe('mayCreatePassport', () => {
  it.each([
    ...forEveryActor(
      'own passport',
      { userId: ACTOR_ID },
      { verified: ALL_ROLES, unverified: NO_ROLE },
    ),
    ...forEveryActor('passport of someone else', { userId: OTHER_USER_ID }, NO_ROLE),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayCreatePassport(actor, facts)).toBe(expected);
  });
});
