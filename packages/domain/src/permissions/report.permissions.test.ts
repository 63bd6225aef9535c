import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import { mayReadUserReports } from './report.permissions.ts';
import { ACTOR_ID, NO_ROLE, OTHER_USER_ID, forEveryActor } from './test-support/actor-matrix.ts';

describe('mayReadUserReports', () => {
  it.each([
    ...forEveryActor('reports about someone else', { reportedUserId: OTHER_USER_ID }, [Role.Orga]),
    ...forEveryActor('reports about themself', { reportedUserId: ACTOR_ID }, NO_ROLE),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayReadUserReports(actor, facts)).toBe(expected);
  });
});
