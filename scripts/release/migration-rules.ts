// Expand/contract for the schema (docs/operations.md §1): a migration added since the previous
// release may only add, as squawk checks, and may not drop, rename or retype what the previous
// release still reads, since that release runs on the new schema during a rolling update.
// Released migrations never change.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { fileAt, filesAt, git, ROOT, type Release } from './previous-release.ts';

export const MIGRATIONS_FOLDER = 'packages/domain/src/migrations';
const MIGRATION_FILE = /^Migration\d{14}_\w+\.ts$/;

/**
 * squawk's rules that do not fit this schema: ids are 32-bit integers by the specification,
 * text columns carry their lengths, and each migration runs once in its own transaction with
 * its name recorded, so a statement need not be re-runnable.
 */
export const SQUAWK_EXCLUDED_RULES = [
  'prefer-bigint-over-int',
  'prefer-bigint-over-smallint',
  'prefer-identity',
  'prefer-text-field',
  'prefer-robust-stmts',
];

export interface Finding {
  migration: string;
  rule: string;
  message: string;
}

/** The migration files of this checkout, as paths from the repository root. */
export function currentMigrationFiles(root = ROOT): string[] {
  return readdirSync(path.join(root, MIGRATIONS_FOLDER))
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => `${MIGRATIONS_FOLDER}/${name}`);
}

/** The migration files the previous release shipped. */
export function releasedMigrationFiles(previous: Release, root = ROOT): string[] {
  return filesAt(previous.commit, MIGRATIONS_FOLDER, root).filter((file) =>
    MIGRATION_FILE.test(path.basename(file)),
  );
}

/** Released migrations that were edited or removed since the previous release. */
export function changedReleasedMigrations(previous: Release, root = ROOT): string[] {
  return releasedMigrationFiles(previous, root).filter((file) => {
    try {
      return readFileSync(path.join(root, file), 'utf8') !== fileAt(previous.commit, file, root);
    } catch {
      return true;
    }
  });
}

/** Migrations added since the previous release. */
export function newMigrationFiles(previous: Release, root = ROOT): string[] {
  const released = new Set(releasedMigrationFiles(previous, root));
  return currentMigrationFiles(root).filter((file) => !released.has(file));
}

interface MigrationLike {
  up(): void | Promise<void>;
  getQueries(): unknown[];
  isTransactional(): boolean;
}

export interface MigrationSql {
  name: string;
  statements: string[];
  transactional: boolean;
}

/** The statements a migration's `up()` adds, read without a database. */
export async function migrationSql(file: string, root = ROOT): Promise<MigrationSql> {
  const module = (await import(pathToFileURL(path.join(root, file)).href)) as Record<
    string,
    new (driver: unknown, config: unknown) => MigrationLike
  >;
  const name = path.basename(file, '.ts');
  const MigrationClass = module[name];
  if (!MigrationClass) throw new Error(`${file} does not export the class ${name}`);
  const migration = new MigrationClass(undefined, undefined);
  await migration.up();
  const statements = migration.getQueries().map((query) => {
    if (typeof query !== 'string') throw new Error(`${name}: only SQL strings can be checked`);
    return query;
  });
  return { name, statements, transactional: migration.isTransactional() };
}

const run = promisify(execFile);

/** squawk's findings on the migrations' SQL. */
export async function squawkFindings(migrations: readonly MigrationSql[]): Promise<Finding[]> {
  if (migrations.length === 0) return [];
  const folder = await mkdtemp(path.join(tmpdir(), 'squawk-'));
  try {
    const findings: Finding[] = [];
    for (const migration of migrations) {
      const file = path.join(folder, `${migration.name}.sql`);
      await writeFile(file, migration.statements.map((sql) => `${sql};`).join('\n'));
      const args = [
        '--reporter',
        'json',
        `--exclude=${SQUAWK_EXCLUDED_RULES.join(',')}`,
        migration.transactional ? '--assume-in-transaction' : '--no-assume-in-transaction',
        file,
      ];
      const output = await run(path.join(ROOT, 'node_modules', '.bin', 'squawk'), args, {
        timeout: 30_000,
      }).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string; code?: unknown }) => {
          if (typeof error.stdout !== 'string' || error.stdout === '') throw error;
          return error.stdout;
        },
      );
      const reported = JSON.parse(output) as { rule_name: string; message: string }[];
      findings.push(
        ...reported.map(({ rule_name, message }) => ({
          migration: migration.name,
          rule: rule_name,
          message,
        })),
      );
    }
    return findings;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The names a statement takes away from readers: dropped, renamed or retyped. */
export function removedNames(sql: string): string[] {
  const names: string[] = [];
  const patterns = [
    /\bdrop\s+column\s+(?:if\s+exists\s+)?"?(\w+)"?/gi,
    /\bdrop\s+table\s+(?:if\s+exists\s+)?"?(\w+)"?/gi,
    /\brename\s+column\s+"?(\w+)"?\s+to\b/gi,
    /\balter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?"?(\w+)"?\s+rename\s+to\b/gi,
    /\balter\s+column\s+"?(\w+)"?\s+(?:set\s+data\s+)?type\b/gi,
  ];
  for (const pattern of patterns) {
    for (const match of sql.matchAll(pattern)) names.push(match[1]!.toLowerCase());
  }
  return [...new Set(names)];
}

/** Where the previous release's code names `identifier`, outside its migrations. */
export function readsAt(previous: Release, identifier: string, root = ROOT): string[] {
  try {
    return git(
      [
        'grep',
        '-n',
        '-w',
        '-i',
        '-F',
        '-e',
        identifier,
        previous.commit,
        '--',
        'apps',
        'packages',
        `:(exclude)${MIGRATIONS_FOLDER}`,
      ],
      root,
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(previous.commit.length + 1));
  } catch {
    return []; // git grep exits 1 when nothing matches
  }
}

/** A drop, rename or type change of something the previous release's code still names. */
export function stillReadFindings(
  migrations: readonly MigrationSql[],
  previous: Release,
  root = ROOT,
): Finding[] {
  return migrations.flatMap((migration) =>
    migration.statements.flatMap(removedNames).flatMap((name) => {
      const reads = readsAt(previous, name, root);
      if (reads.length === 0) return [];
      return [
        {
          migration: migration.name,
          rule: 'still-read-by-previous-release',
          message: `"${name}" is still read by release ${previous.version}, e.g. ${reads[0]}: drop or rename it a release later`,
        },
      ];
    }),
  );
}
