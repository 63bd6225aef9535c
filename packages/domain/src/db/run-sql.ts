import { hash } from 'node:crypto';
import { namedStatementsAllowed } from './named-statements.ts';
import { databasePool, type EntityManager } from './orm.ts';

/**
 * A statement with `?` placeholders and its values, as a feature's `.sql.ts` builds it. `Row`
 * types the rows it returns, so that the caller never restates it.
 *
 * `?` stands for a value and nothing else (not a jsonb operator). An array goes in as
 * PostgreSQL's text of it (`{1,2,3}` for `?::int[]`): inside a transaction MikroORM would
 * spread a JavaScript array into a list.
 */
export interface SqlQuery<Row extends object = object> {
  sql: string;
  params: unknown[];
  /** Never set: it only carries `Row` from the query's builder to `runSql`. */
  readonly rowType?: Row;
}

/** A statement as PostgreSQL prepares it: numbered placeholders, named by its text. */
export interface NamedStatement {
  /** `q_` and a digest of the text: a changed text gets a new name on every connection. */
  name: string;
  /** The SQL with PostgreSQL's `$1, $2, …` placeholders. */
  text: string;
}

// Features build few distinct texts; the bound keeps a builder that made many from growing it
// without end. Why it pays: docs/benchmarks.md §3.
const STATEMENT_CACHE_LIMIT = 1000;
const statements = new Map<string, NamedStatement>();

export function namedStatement(sql: string): NamedStatement {
  const known = statements.get(sql);
  if (known) return known;
  let position = 0;
  const text = sql.replace(/\?/g, () => `$${++position}`);
  const statement = Object.freeze({ name: `q_${hash('sha256', text, 'hex').slice(0, 12)}`, text });
  if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
  statements.set(sql, statement);
  return statement;
}

/**
 * The rows of `query`, the one way a feature runs its SQL.
 *
 * Outside a transaction it runs as a named prepared statement on the pool: PostgreSQL parses
 * and plans it once per connection, which pays for reads of many joins (docs/benchmarks.md §3).
 * Behind a pooler that cannot keep named statements (named-statements.ts) it runs unnamed,
 * with the values still bound. Inside a transaction it runs as text on the transaction's own
 * connection, which the pool cannot hand out.
 */
export async function runSql<Row extends object>(
  em: EntityManager,
  query: SqlQuery<Row>,
): Promise<Row[]> {
  if (em.isInTransaction()) return em.execute<Row[]>(query.sql, query.params);
  const pool = await databasePool(em);
  const { name, text } = namedStatement(query.sql);
  // MikroORM's query logger sees it as it sees every statement, so query counts include it.
  const logger = em.config.getLogger();
  const log = { query: query.sql, params: query.params };
  const started = Date.now();
  try {
    const result = await pool.query<Row>({
      ...(namedStatementsAllowed(pool) ? { name } : {}),
      text,
      values: query.params,
    });
    const took = Date.now() - started;
    logger.logQuery({ ...log, took, results: result.rowCount ?? undefined, level: 'info' });
    return result.rows;
  } catch (error) {
    logger.logQuery({ ...log, took: Date.now() - started, level: 'error' });
    throw error;
  }
}
