import { describe, expect, it } from '../test-support/fixtures.ts';
import { migrateCommand } from './db.command.ts';

describe('db migrate', () => {
  it('applies nothing to an up-to-date database', async ({ db }) => {
    expect(await migrateCommand(db.orm)).toEqual({ applied: [] });
  });

  it('applies the pending migrations and names them', async ({ db }) => {
    await db.orm.migrator.down({ to: 0 });
    const result = await migrateCommand(db.orm);
    expect(result.applied).toContain('Migration20261122000000_initial');
    expect(await db.orm.migrator.getPending()).toEqual([]);
  });
});
