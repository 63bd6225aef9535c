import { migrateToLatest, type MikroORM } from '@foodshare/domain';
import { Command } from 'commander';
import { withOrm } from '../cli-context.ts';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../cli-runtime.ts';

export interface MigrateResult {
  /** Names of the migrations this run applied, oldest first; empty when it was up to date. */
  applied: string[];
}

export async function migrateCommand(orm: MikroORM): Promise<MigrateResult> {
  const pending = await orm.migrator.getPending();
  await migrateToLatest(orm);
  return { applied: pending.map((migration) => migration.name) };
}

export function dbCommands(runtime: CliRuntime): Command {
  const db = new Command('db').description('the database schema');

  db.addCommand(
    leafCommand('migrate', 'apply every pending migration, in one transaction').action(
      (flags: JsonFlag) =>
        runCommand(
          runtime,
          flags,
          () => withOrm(runtime.env, migrateCommand),
          (result) =>
            result.applied.length === 0
              ? 'The database is up to date.'
              : `Applied ${result.applied.length} migration(s):\n  ${result.applied.join('\n  ')}`,
        ),
    ),
  );

  return db;
}
