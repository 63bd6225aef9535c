export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The same server and credentials, another database. */
export function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** Safe as an SQL identifier without quoting tricks: lowercase letters, digits, underscores. */
export function sanitizeIdentifier(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 60);
}
