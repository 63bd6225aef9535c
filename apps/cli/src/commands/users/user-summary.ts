import type { Role, UserEntity } from '@foodshare/domain';
import { roleName } from './roles.ts';

export interface UserSummary {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  verified: boolean;
  homeRegionId: number | null;
}

export function summarize(user: UserEntity): UserSummary {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    verified: user.verified,
    homeRegionId: user.homeRegion?.id ?? null,
  };
}

export interface UserListItem extends UserSummary {
  activated: boolean;
}

export function listItem(user: UserEntity): UserListItem {
  return { ...summarize(user), activated: user.activated };
}

/** One line per user, as `users list` and `users show` print them. */
export function describeUser(user: UserListItem): string {
  return (
    `${user.id}\t${user.email}\t${user.firstName} ${user.lastName}\t${roleName(user.role)}` +
    `${user.verified ? '\tverified' : ''}${user.activated ? '' : '\tdeactivated'}`
  );
}
