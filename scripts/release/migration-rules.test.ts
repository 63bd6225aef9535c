import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  changedReleasedMigrations,
  migrationSql,
  newMigrationFiles,
  removedNames,
  squawkFindings,
  stillReadFindings,
  type MigrationSql,
} from './migration-rules.ts';
import { previousRelease, readReleaseFile } from './previous-release.ts';

const previous = previousRelease();

const migration = (name: string, ...statements: string[]): MigrationSql => ({
  name,
  statements,
  transactional: true,
});

describe('the schema changes of this release, against the previous release', () => {
  it('leaves every released migration as it was', () => {
    expect(changedReleasedMigrations(previous)).toEqual([]);
  });

  it('only adds: squawk finds nothing, and nothing the previous release reads goes away', async () => {
    const added = await Promise.all(newMigrationFiles(previous).map((file) => migrationSql(file)));
    expect(await squawkFindings(added)).toEqual([]);
    expect(stillReadFindings(added, previous)).toEqual([]);
  });
});

describe('the rules themselves', () => {
  it("reads a migration's SQL without a database", async () => {
    const sql = await migrationSql(
      'packages/domain/src/migrations/Migration20261126100000_oauth_par_and_backchannel_logout.ts',
    );
    expect(sql.transactional).toBe(true);
    expect(sql.statements.join('\n')).toMatch(
      /add column "backchannel_logout_uri" varchar\(2000\) null/,
    );
  });

  it('refuses a drop or rename of a column the previous release still reads', () => {
    const findings = stillReadFindings(
      [
        migration('Migration29990101000000_drop', 'alter table "users" drop column "first_name"'),
        migration(
          'Migration29990101000001_rename',
          'alter table "regions" rename column "name" to "title"',
        ),
      ],
      previous,
    );
    expect(findings.map(({ migration: name, rule }) => [name, rule])).toEqual([
      ['Migration29990101000000_drop', 'still-read-by-previous-release'],
      ['Migration29990101000001_rename', 'still-read-by-previous-release'],
    ]);
    expect(findings[0]!.message).toMatch(/"first_name" is still read by release 0\.1\.0, e\.g\. /);
  });

  it('lets a column go that no code of the previous release names', () => {
    const dropped = migration(
      'Migration29990101000000_drop',
      'alter table "users" drop column "column_nobody_ever_read"',
    );
    expect(stillReadFindings([dropped], previous)).toEqual([]);
  });

  it('names what a statement drops, renames or retypes, and nothing of what it adds', () => {
    expect(removedNames('alter table "a" drop column if exists "b", drop column c')).toEqual([
      'b',
      'c',
    ]);
    expect(removedNames('drop table "old_things"')).toEqual(['old_things']);
    expect(removedNames('alter table "t" rename to "u"')).toEqual(['t']);
    expect(removedNames('alter table "t" alter column "x" type bigint')).toEqual(['x']);
    expect(removedNames('alter table "t" add column "x" int null')).toEqual([]);
  });

  it('lets squawk refuse a blocking index and a required column, and pass a plain addition', async () => {
    const findings = await squawkFindings([
      migration('Migration29990101000000_index', 'create index "users_x" on "users" ("email")'),
      migration(
        'Migration29990101000001_required',
        'alter table "users" add column "x" int not null',
      ),
      migration(
        'Migration29990101000002_nullable',
        "set lock_timeout = '5s'",
        "set statement_timeout = '60s'",
        'alter table "users" add column "nickname" varchar(100) null',
      ),
    ]);
    const rules = (name: string) =>
      findings.filter((finding) => finding.migration === name).map((finding) => finding.rule);
    expect(rules('Migration29990101000000_index')).toContain('require-concurrent-index-creation');
    expect(rules('Migration29990101000001_required')).toContain('adding-required-field');
    expect(rules('Migration29990101000002_nullable')).toEqual([]);
  });
});

describe('the release being prepared', () => {
  it('is the version of every deployable app', async () => {
    const { version, previous: before } = readReleaseFile();
    for (const app of ['api', 'auth', 'cli']) {
      const manifest = JSON.parse(
        await readFile(new URL(`../../apps/${app}/package.json`, import.meta.url), 'utf8'),
      ) as { version: string };
      expect(manifest.version, app).toBe(version);
    }
    expect(version).not.toBe(before.version);
  });
});
