import { createRegion, type CreateRegionInput } from '../accounts/regions.service.ts';
import { RegionOptionsEntity } from '../entities/region.entity.ts';
import { ApplyType, RegionType, WorkGroupFunction } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { DemoRegionId } from './demo-ids.ts';

const R = DemoRegionId;

// Parents come before their children: createRegion looks the parent up.
const UNITS: CreateRegionInput[] = [
  { id: R.Germany, name: 'Deutschland', type: RegionType.Country, timezone: 'Europe/Berlin' },
  { id: R.FederalState, name: 'Musterland', type: RegionType.FederalState, parentId: R.Germany },
  {
    id: R.Musterstadt,
    name: 'Musterstadt',
    type: RegionType.City,
    parentId: R.FederalState,
    mailbox: 'musterstadt',
    emailName: 'Foodsharing Musterstadt',
    allowHidingInForum: true,
  },
  {
    id: R.Beispieldorf,
    name: 'Beispieldorf',
    type: RegionType.City,
    parentId: R.FederalState,
    mailbox: 'beispieldorf',
    emailName: 'Foodsharing Beispieldorf',
  },
  {
    id: R.MusterstadtWorkGroup,
    name: 'Öffentlichkeitsarbeit Musterstadt',
    type: RegionType.WorkingGroup,
    parentId: R.Musterstadt,
    workgroupFunction: WorkGroupFunction.PublicRelations,
    applyType: ApplyType.ByApplication,
    mailbox: 'oeffentlichkeitsarbeit.musterstadt',
    emailName: 'Öffentlichkeitsarbeit Musterstadt',
  },
  {
    id: R.GlobalWorkingGroups,
    name: 'Bundesweite Arbeitsgruppen',
    type: RegionType.WorkingGroup,
    parentId: R.Germany,
    applyType: ApplyType.Nobody,
  },
  {
    id: R.StoreChainGroup,
    name: 'Betriebsketten',
    type: RegionType.WorkingGroup,
    parentId: R.GlobalWorkingGroups,
  },
  {
    id: R.ItSupport,
    name: 'IT-Support',
    type: RegionType.WorkingGroup,
    parentId: R.GlobalWorkingGroups,
  },
  {
    id: R.QuizGroup,
    name: 'Quiz',
    type: RegionType.WorkingGroup,
    parentId: R.GlobalWorkingGroups,
  },
  {
    id: R.OAuthClientAdministration,
    name: 'OAuth-Client-Verwaltung',
    type: RegionType.WorkingGroup,
    parentId: R.GlobalWorkingGroups,
    applyType: ApplyType.Nobody,
  },
];

/** The demo region tree, the well-known units beside it, and the options of Musterstadt. */
export async function createUnits(em: EntityManager): Promise<void> {
  for (const unit of UNITS) await createRegion(em, unit);
  em.create(RegionOptionsEntity, {
    region: R.Musterstadt,
    enableReportButton: true,
    enableMediationButton: true,
    regionPickupRuleActive: true,
    regionPickupRuleTimespan: 7,
    regionPickupRuleLimit: 3,
    regionPickupRuleLimitDay: 1,
    regionPickupRuleInactive: 24,
    selectedReportReasonOptions: 2,
    enableReportReasonOther: true,
  });
}
