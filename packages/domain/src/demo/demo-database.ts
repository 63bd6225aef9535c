import { migrateDatabase, openOrm } from '../db/orm.ts';
import { loadDemoData } from './demo-data.ts';
import type { DemoDataIds } from './demo-ids.ts';

/** Migrates an empty database and loads the demo data into it (test templates, demos). */
export async function prepareDemoDatabase(url: string): Promise<DemoDataIds> {
  await migrateDatabase(url);
  const orm = await openOrm({ url, poolSize: 1 });
  try {
    return await loadDemoData(orm.em.fork());
  } finally {
    await orm.close();
  }
}
