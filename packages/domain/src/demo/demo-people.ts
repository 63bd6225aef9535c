import { hash } from 'node:crypto';
import { ref } from '@mikro-orm/core';
import { addAdmin, addMembership } from '../accounts/regions.service.ts';
import { createUser } from '../accounts/users.service.ts';
import { PassportGenerationEntity } from '../entities/passport-generation.entity.ts';
import { UploadEntity } from '../entities/upload.entity.ts';
import { BuddyEntity, type UserEntity } from '../entities/user.entity.ts';
import { WorkGroupApplicationEntity } from '../entities/work-group-application.entity.ts';
import { Role } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { demoAvatarPng } from './demo-avatar.ts';
import type { DemoClock } from './demo-clock.ts';
import { DEMO_PASSWORD, DemoRegionId, DemoUserEmail, type DemoUserName } from './demo-ids.ts';

export type DemoUsers = Record<DemoUserName, UserEntity>;

export interface DemoPeople {
  users: DemoUsers;
  avatarUpload: UploadEntity;
}

interface PersonSpec {
  firstName: string;
  lastName: string;
  role: Role;
  verified: boolean;
  homeRegionId: number | null;
  address?: { street: string; zip: string; city: string; latitude: number; longitude: number };
  mobile?: string;
}

const PEOPLE: Record<DemoUserName, PersonSpec> = {
  orga: {
    firstName: 'Olga',
    lastName: 'Orgel',
    role: Role.Orga,
    verified: true,
    homeRegionId: null,
  },
  alice: {
    firstName: 'Alice',
    lastName: 'Mustermann',
    role: Role.StoreManager,
    verified: true,
    homeRegionId: DemoRegionId.Musterstadt,
    address: {
      street: 'Lindenallee 4',
      zip: '12345',
      city: 'Musterstadt',
      latitude: 52.3731,
      longitude: 9.7356,
    },
    mobile: '+49 151 00000001',
  },
  bob: {
    firstName: 'Bob',
    lastName: 'Beispiel',
    role: Role.Foodsaver,
    verified: true,
    homeRegionId: DemoRegionId.Beispieldorf,
    address: {
      street: 'Feldweg 7',
      zip: '12399',
      city: 'Beispieldorf',
      latitude: 52.4312,
      longitude: 9.8437,
    },
  },
  carla: {
    firstName: 'Carla',
    lastName: 'Neumann',
    role: Role.Foodsharer,
    verified: false,
    homeRegionId: DemoRegionId.Musterstadt,
  },
  dana: {
    firstName: 'Dana',
    lastName: 'Berger',
    role: Role.Ambassador,
    verified: true,
    homeRegionId: DemoRegionId.Musterstadt,
    address: {
      street: 'Schulstraße 9',
      zip: '12345',
      city: 'Musterstadt',
      latitude: 52.3702,
      longitude: 9.7298,
    },
  },
  kim: {
    firstName: 'Kim',
    lastName: 'Kettner',
    role: Role.StoreManager,
    verified: true,
    homeRegionId: DemoRegionId.Musterstadt,
    address: {
      street: 'Am Hafen 1',
      zip: '12345',
      city: 'Musterstadt',
      latitude: 52.3812,
      longitude: 9.7501,
    },
  },
};

/**
 * The demo users with their unit roles, alice's avatar and passport, the buddies and carla's
 * application to alice's working group. Needs the units to exist.
 */
export async function createPeople(em: EntityManager, clock: DemoClock): Promise<DemoPeople> {
  const users = await createUsers(em, clock);
  await grantUnitRoles(em, users);
  const avatarUpload = createAvatar(em, users.alice);
  createBuddies(em, users);
  em.create(WorkGroupApplicationEntity, {
    group: DemoRegionId.MusterstadtWorkGroup,
    user: users.carla,
    message:
      'Hallo Alice, ich habe früher Plakate für den Sportverein gestaltet und würde gern bei der Öffentlichkeitsarbeit mithelfen.',
    appliedAt: clock.ago(3),
  });
  em.create(PassportGenerationEntity, {
    user: users.alice,
    generatedBy: users.alice,
    createdAt: clock.ago(100),
  });
  return { users, avatarUpload };
}

async function createUsers(em: EntityManager, clock: DemoClock): Promise<DemoUsers> {
  const users = {} as DemoUsers;
  for (const name of Object.keys(PEOPLE) as DemoUserName[]) {
    const spec = PEOPLE[name];
    const user = await createUser(em, {
      firstName: spec.firstName,
      lastName: spec.lastName,
      email: DemoUserEmail[name],
      password: DEMO_PASSWORD,
      role: spec.role,
      verified: spec.verified,
      homeRegionId: spec.homeRegionId,
    });
    Object.assign(user, spec.address ?? {});
    user.mobile = spec.mobile ?? null;
    user.privacyNoticeAcceptedAt = clock.ago(365);
    users[name] = user;
  }
  return users;
}

async function grantUnitRoles(em: EntityManager, users: DemoUsers): Promise<void> {
  const R = DemoRegionId;
  await addAdmin(em, users.orga.id, R.OAuthClientAdministration);
  await addAdmin(em, users.orga.id, R.ItSupport);
  await addAdmin(em, users.alice.id, R.MusterstadtWorkGroup);
  await addAdmin(em, users.dana.id, R.Musterstadt);
  await addMembership(em, users.kim.id, R.StoreChainGroup);
}

function createAvatar(em: EntityManager, owner: UserEntity): UploadEntity {
  const avatar = demoAvatarPng([46, 125, 50]);
  const upload = em.create(UploadEntity, {
    id: '5e1f0d3a-7c52-4b8e-9a61-0d3e5f7a11ce',
    user: owner,
    mimeType: 'image/png',
    size: avatar.length,
    sha256: hash('sha256', avatar, 'hex'),
    content: avatar,
  });
  owner.avatarUpload = ref(upload);
  return upload;
}

function createBuddies(em: EntityManager, users: DemoUsers): void {
  const { alice, bob, kim } = users;
  em.create(BuddyEntity, { user: alice, buddy: bob });
  em.create(BuddyEntity, { user: bob, buddy: alice });
  em.create(BuddyEntity, { user: alice, buddy: kim });
  em.create(BuddyEntity, { user: kim, buddy: alice });
}
