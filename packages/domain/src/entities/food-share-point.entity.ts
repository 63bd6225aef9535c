import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

export const FoodSharePointEntity = defineEntity({
  name: 'FoodSharePoint',
  tableName: 'food_share_points',
  properties: {
    id: identityId(),
    name: p.string().length(120),
    region: () => p.manyToOne(RegionEntity).ref().deleteRule('cascade').index(),
    street: p.string().length(200).nullable(),
    zip: p.string().length(10).nullable(),
    city: p.string().length(100).nullable(),
    latitude: p.double().nullable().check("abs(latitude) <= '90'::double precision"),
    longitude: p.double().nullable().check("abs(longitude) <= '180'::double precision"),
    createdAt: createdAt(),
  },
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type FoodSharePointEntity = InferEntity<typeof FoodSharePointEntity>;
