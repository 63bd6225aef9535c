import { RegionType, WorkGroupFunction } from '@foodshare/domain';

export const REGION_TYPE_NAMES: Readonly<Record<string, RegionType>> = {
  city: RegionType.City,
  district: RegionType.District,
  region: RegionType.Region,
  'federal-state': RegionType.FederalState,
  country: RegionType.Country,
  'working-group': RegionType.WorkingGroup,
  'big-city': RegionType.BigCity,
  'part-of-town': RegionType.PartOfTown,
};

export function regionTypeName(type: RegionType): string {
  return (
    Object.keys(REGION_TYPE_NAMES).find((name) => REGION_TYPE_NAMES[name] === type) ??
    `type ${type}`
  );
}

export const WORK_GROUP_FUNCTION_NAMES: Readonly<Record<string, WorkGroupFunction>> = {
  welcome: WorkGroupFunction.Welcome,
  voting: WorkGroupFunction.Voting,
  'food-share-points': WorkGroupFunction.FoodSharePoints,
  'stores-coordination': WorkGroupFunction.StoresCoordination,
  report: WorkGroupFunction.Report,
  mediation: WorkGroupFunction.Mediation,
  arbitration: WorkGroupFunction.Arbitration,
  'foodsaver-management': WorkGroupFunction.FoodsaverManagement,
  pr: WorkGroupFunction.PublicRelations,
  moderation: WorkGroupFunction.Moderation,
  board: WorkGroupFunction.Board,
  election: WorkGroupFunction.Election,
};
