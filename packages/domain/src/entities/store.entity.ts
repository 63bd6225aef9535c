import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CooperationStatus, StoreTeamStatus } from '../enums.ts';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { StoreChainEntity } from './store-chain.entity.ts';
import { UserEntity } from './user.entity.ts';
import { orderedIndex } from './ordered-index.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

export const StoreEntity = defineEntity({
  name: 'Store',
  tableName: 'stores',
  properties: {
    id: identityId(),
    name: p.string().length(120),
    // Stores exist only in member regions (types 1, 2, 3, 9); the services check the type.
    region: () => p.manyToOne(RegionEntity).ref().deleteRule('restrict').index(),
    chain: () => p.manyToOne(StoreChainEntity).ref().nullable().deleteRule('set null').index(),
    cooperationStatus: p
      .smallint()
      .$type<CooperationStatus>()
      .default(CooperationStatus.Unclear)
      .check('cooperation_status in (0, 1, 2, 4, 5, 6, 7)'),
    // 0 closed, 1 open, 2 open and looking for members.
    teamStatus: p.smallint().default(0).check('team_status >= 0 and team_status <= 2'),
    street: p.string().length(200).nullable(),
    zip: p.string().length(10).nullable(),
    city: p.string().length(100).nullable(),
    latitude: p.double().nullable().check("abs(latitude) <= '90'::double precision"),
    longitude: p.double().nullable().check("abs(longitude) <= '180'::double precision"),
    regionPickupRuleActive: p.boolean().default(false),
    createdAt: createdAt(),
    team: () => p.oneToMany(StoreTeamMembershipEntity).mappedBy('store').orphanRemoval(),
  },
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type StoreEntity = InferEntity<typeof StoreEntity>;

export const StoreTeamMembershipEntity = defineEntity({
  name: 'StoreTeamMembership',
  tableName: 'store_team_memberships',
  properties: {
    store: () => p.manyToOne(StoreEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    status: p
      .smallint()
      .$type<StoreTeamStatus>()
      .default(StoreTeamStatus.Applied)
      .check('status >= 0 and status <= 3'),
    isManager: p.boolean().default(false),
    applicationMessage: p.text().nullable(),
    appliedAt: p.datetime().nullable(),
    joinedAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'store_team_memberships_user_id_index', properties: ['user'] },
    {
      // A store's team by status, and its pending requests newest application first (as the
      // page reads them, undated legacy rows last) straight from the index: a page of
      // requests never sorts all of them.
      name: 'store_team_memberships_store_id_status_applied_at_user_id_index',
      expression: orderedIndex(
        '"store_id", "status", "applied_at" DESC NULLS LAST, "user_id" DESC',
      ),
    },
  ],
  checks: [
    {
      name: 'store_team_memberships_manager_is_member',
      expression: 'not is_manager or status = 1',
    },
  ],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type StoreTeamMembershipEntity = InferEntity<typeof StoreTeamMembershipEntity>;
