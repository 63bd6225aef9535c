import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ChainStatus } from '../enums.ts';
import { identityId } from './columns.ts';
import { ForumThreadEntity } from './forum.entity.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

export const StoreChainEntity = defineEntity({
  name: 'StoreChain',
  tableName: 'store_chains',
  properties: {
    id: identityId(),
    name: p.string().length(120).check('char_length(name) >= 1'),
    status: p
      .smallint()
      .$type<ChainStatus>()
      .default(ChainStatus.NotCooperating)
      .check('status >= 0 and status <= 4'),
    headquartersZip: p.string().length(5).nullable(),
    headquartersCity: p.string().length(50).nullable(),
    headquartersCountry: p.string().length(50).nullable(),
    allowPress: p.boolean().default(false),
    // A thread of the store-chain group's forum (unit 332).
    forumThread: () => p.manyToOne(ForumThreadEntity).ref().nullable().deleteRule('set null'),
    notes: p.string().length(200).nullable(),
    commonStoreInformation: p.text().nullable(),
    estimatedStoreCount: p.integer().default(0).check('estimated_store_count >= 0'),
    region: () => p.manyToOne(RegionEntity).ref().nullable().deleteRule('set null').index(),
    modificationDate: p.datetime().defaultRaw('now()'),
    kams: () => p.oneToMany(StoreChainKamEntity).mappedBy('chain').orphanRemoval(),
  },
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type StoreChainEntity = InferEntity<typeof StoreChainEntity>;

/** Key account managers of a chain; they must be members of the store-chain group (checked by the service). */
export const StoreChainKamEntity = defineEntity({
  name: 'StoreChainKam',
  tableName: 'store_chain_kams',
  properties: {
    chain: () => p.manyToOne(StoreChainEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
  },
  indexes: [{ name: 'store_chain_kams_user_id_index', properties: ['user'] }],
});
export type StoreChainKamEntity = InferEntity<typeof StoreChainKamEntity>;
