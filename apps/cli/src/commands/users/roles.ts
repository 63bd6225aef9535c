import { Role } from '@foodshare/domain';
import { parseCode } from '../../cli-runtime.ts';

export const ROLE_NAMES: Readonly<Record<string, Role>> = {
  foodsharer: Role.Foodsharer,
  foodsaver: Role.Foodsaver,
  'store-manager': Role.StoreManager,
  ambassador: Role.Ambassador,
  orga: Role.Orga,
};

export const parseRole = parseCode('role', ROLE_NAMES);

export function roleName(role: Role): string {
  return Object.keys(ROLE_NAMES).find((name) => ROLE_NAMES[name] === role) ?? String(role);
}
