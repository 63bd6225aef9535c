import { describe, expect, it } from 'vitest';
import { useTestOrm } from '../test-support/test-orm.ts';
import { migrateCommand } from './db.command.ts';

const db = useTestOrm();

describe('db migrate', () => {
  it('applies nothing to an up-to-date database', async () => {
    expect(await migrateCommand(db.orm)).toEqual({ applied: [] });
  });

  it('applies the pending migrations and names them', async () => {
    await db.orm.migrator.down({ to: 0 });
    const result = await migrateCommand(db.orm);
    expect(result.applied).toContain('Migration20261122000000_initial');
    expect(await db.orm.migrator.getPending()).toEqual([]);
  });
});
