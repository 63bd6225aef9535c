import { addAdmin, createRegion, createUser, RegionType } from '@foodshare/domain';
import type { TestOrm } from './fixtures.ts';

/**
 * Sachsen > Leipzig > Connewitz, and a working group at the top; Leipzig has one admin (and so
 * one member).
 */
export async function regionTree(db: TestOrm) {
  const state = await createRegion(db.em(), { name: 'Sachsen', type: RegionType.FederalState });
  const city = await createRegion(db.em(), {
    name: 'Leipzig',
    type: RegionType.City,
    parentId: state.id,
  });
  const town = await createRegion(db.em(), {
    name: 'Connewitz',
    type: RegionType.PartOfTown,
    parentId: city.id,
  });
  const group = await createRegion(db.em(), { name: 'AG Leipzig', type: RegionType.WorkingGroup });
  const user = await createUser(db.em(), {
    email: 'ambassador@example.org',
    firstName: 'Ada',
    lastName: 'Ambassador',
    password: 'long enough',
  });
  await addAdmin(db.em(), user.id, city.id);
  return { state, city, town, group };
}
