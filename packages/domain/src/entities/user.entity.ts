import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Role } from '../enums.ts';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UploadEntity } from './upload.entity.ts';
import {
  SEARCH_INDEX_VERSION_TRIGGER,
  USERS_SEARCH_INDEX_VERSION_TRIGGER,
} from './search-index-version.entity.ts';

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: identityId(),
    firstName: p.string().length(100),
    lastName: p.string().length(100),
    // Lowercased on the way in (and in queries), so lookups and the unique index ignore case.
    email: p.string().trim().lowercase().length(255).unique(),
    passwordHash: p.text().hidden(),
    role: p.smallint().$type<Role>().default(Role.Foodsharer).check('role >= 0 and role <= 4'),
    verified: p.boolean().default(false),
    activated: p.boolean().default(true),
    sleeping: p.boolean().default(false),
    avatarUpload: () => p.manyToOne(UploadEntity).ref().nullable().deleteRule('set null').index(),
    homeRegion: () => p.manyToOne(RegionEntity).ref().nullable().deleteRule('set null').index(),
    street: p.string().length(200).nullable(),
    zip: p.string().length(10).nullable(),
    city: p.string().length(100).nullable(),
    latitude: p.double().nullable().check("abs(latitude) <= '90'::double precision"),
    longitude: p.double().nullable().check("abs(longitude) <= '180'::double precision"),
    mobile: p.string().length(50).nullable(),
    privacyNoticeAcceptedAt: p.datetime().nullable(),
    createdAt: createdAt(),
    lastLoginAt: p.datetime().nullable(),
    // OAuth refresh-token families created before this are revoked. Set by database triggers
    // whenever the user's region memberships or admin roles change (Migration20261122060000).
    tokensValidAfter: p.datetime().nullable(),
  },
  checks: [{ name: 'users_email_lowercase', expression: 'email = lower(email)' }],
  triggers: [USERS_SEARCH_INDEX_VERSION_TRIGGER],
});
export type UserEntity = InferEntity<typeof UserEntity>;

/** A user's contacts; the search index marks them `isBuddy`. One row per direction. */
export const BuddyEntity = defineEntity({
  name: 'Buddy',
  tableName: 'buddies',
  properties: {
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    buddy: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade').index(),
    createdAt: createdAt(),
  },
  checks: [{ name: 'buddies_not_self', expression: 'user_id <> buddy_id' }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type BuddyEntity = InferEntity<typeof BuddyEntity>;
