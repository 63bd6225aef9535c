import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import { mayAdministerOAuthClients } from './oauth-client.permissions.ts';
import { NO_ROLE, forEveryActor } from './test-support/actor-matrix.ts';

describe('mayAdministerOAuthClients', () => {
  it.each([
    ...forEveryActor(
      'member of the OAuth client group (6704)',
      { isOAuthClientAdminGroupMember: true },
      [Role.Orga],
    ),
    ...forEveryActor(
      'not in the OAuth client group',
      { isOAuthClientAdminGroupMember: false },
      NO_ROLE,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayAdministerOAuthClients(actor, facts)).toBe(expected);
  });
});
