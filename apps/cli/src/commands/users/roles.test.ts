import { Role } from '@foodshare/domain';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { parseRole } from './roles.ts';

describe('role arguments', () => {
  it.each([
    ['foodsharer', Role.Foodsharer],
    ['Store-Manager', Role.StoreManager],
    ['4', Role.Orga],
    ['0', Role.Foodsharer],
  ])('read %s as %i', (input, role) => {
    expect(parseRole(input)).toBe(role);
  });

  it.each(['5', 'admin', '', '1.0'])('refuse %j', (input) => {
    expect(() => parseRole(input)).toThrow(/Unknown role/);
  });
});
