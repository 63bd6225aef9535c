import { describe, expect, it } from 'vitest';
import { holdsRegionDuty, type RegionDutyHolders } from './region-duty.ts';
import { ACTOR_ID, ALL_ROLES, NO_ROLE, forEveryActor } from './test-support/actor-matrix.ts';

const OTHER = 7;
const holders = (
  delegateAdminIds: readonly number[] | null,
  ambassadorIds: readonly number[],
): RegionDutyHolders => ({
  delegateAdminIds: delegateAdminIds === null ? null : new Set(delegateAdminIds),
  ambassadorIds: new Set(ambassadorIds),
});

describe('holdsRegionDuty', () => {
  it.each([
    ...forEveryActor('ambassador, no delegate group', holders(null, [ACTOR_ID]), ALL_ROLES),
    ...forEveryActor('ambassador of another region', holders(null, [OTHER]), NO_ROLE),
    ...forEveryActor('admin of the delegate group', holders([ACTOR_ID], [OTHER]), ALL_ROLES),
    ...forEveryActor(
      'ambassador, duty delegated to a group',
      holders([OTHER], [ACTOR_ID]),
      NO_ROLE,
    ),
    ...forEveryActor('ambassador, delegate group without admins', holders([], [ACTOR_ID]), NO_ROLE),
    ...forEveryActor(
      'admin of the group and ambassador',
      holders([ACTOR_ID], [ACTOR_ID]),
      ALL_ROLES,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(holdsRegionDuty(actor, facts)).toBe(expected);
  });
});
