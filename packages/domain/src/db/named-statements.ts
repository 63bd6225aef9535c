import type { Pool } from 'pg';

// Pools whose statements must stay unnamed: behind a pooler in transaction mode (PgBouncer
// before 1.21, or without max_prepared_statements) a named statement prepared on one server
// connection is unknown on the next, and the read fails. An unnamed statement is parsed, bound
// and run in one go, so it works there too, at the cost of planning on every call.
const unnamedOnly = new WeakSet<Pool>();

export function keepStatementsUnnamed(pool: Pool): void {
  unnamedOnly.add(pool);
}

export function namedStatementsAllowed(pool: Pool): boolean {
  return !unnamedOnly.has(pool);
}
