import type { SchemaTable } from '@mikro-orm/core';

/**
 * A composite index with sort orders, as raw SQL: the ORM's schema diff misreads composite
 * indexes that hold primary-key columns (it reports them as changed on every run), so these
 * are compared by name. The table comes qualified with the schema being generated.
 */
export function orderedIndex(columns: string) {
  return (_columns: unknown, table: SchemaTable, indexName: string) =>
    `create index "${indexName}" on ${table.schema ? `"${table.schema}".` : ''}"${table.name}" (${columns})`;
}
