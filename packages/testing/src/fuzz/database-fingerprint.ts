import pg from 'pg';

/**
 * A digest of every row of every table in the public schema (the migrations' own bookkeeping
 * and the search index's data version aside), so that a test can show that a refused request
 * wrote nothing. The version is raised by every statement on the tables the index reads, even
 * one that changed no row (docs/design.md §3.12): a count of statements, not data. Meant for the small
 * demo-sized test databases: it reads every row.
 */
export interface DatabaseFingerprint {
  /** Table name to the md5 of its rows in a stable order. */
  take(): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export async function databaseFingerprint(url: string): Promise<DatabaseFingerprint> {
  const client = new pg.Client({ connectionString: url, statement_timeout: 10_000 });
  await client.connect();
  const { rows } = await client.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not like 'mikro_orm%' and table_name <> 'search_index_versions'
      order by 1`,
  );
  const digest = rows
    .map(
      ({ name }) =>
        `select ${pg.escapeLiteral(name)} as name,
                md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest
           from ${pg.escapeIdentifier(name)} t`,
    )
    .join(' union all ');
  return {
    async take() {
      const result = await client.query<{ name: string; digest: string }>(digest);
      return new Map(result.rows.map((row) => [row.name, row.digest]));
    },
    close: () => client.end(),
  };
}

/** The tables whose rows differ between two fingerprints. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before.keys()].filter((name) => before.get(name) !== after.get(name));
}
