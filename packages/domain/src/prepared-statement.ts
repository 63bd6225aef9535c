import { hash } from 'node:crypto';
import { namedStatementsAllowed } from './named-statements.ts';
import { databasePool, type EntityManager } from './orm.ts';

/**
 * A read PostgreSQL parses and plans once per connection instead of on every call.
 *
 * MikroORM's `execute` sends each statement as text with its values written in, so PostgreSQL
 * plans it afresh every time. For a statement of many joins (the search index reaches some
 * forty relations) planning costs more than running it: measured on the large bench data, the
 * index took 7 ms as text and 3.5 ms as a prepared statement, and under load the server
 * answered seven times as many. A named statement with bound values is planned once per
 * connection and then served from PostgreSQL's plan cache.
 */
export interface PreparedStatement {
  /** The statement's name on a connection: its purpose and a digest of its text. */
  name: string;
  /** The SQL with `?` placeholders, as `em.execute` takes it (EXPLAIN tests plan this text). */
  sql: string;
  /** The same SQL with PostgreSQL's numbered placeholders. */
  text: string;
}

/**
 * `sql` uses `?` for its values, as everywhere in the code; it must not use `?` for anything
 * else (the jsonb operators, a literal question mark).
 */
export function preparedStatement(purpose: string, sql: string): PreparedStatement {
  let variants = statements.get(purpose);
  if (!variants) {
    variants = [];
    statements.set(purpose, variants);
  }
  const known = variants.find((statement) => statement.sql === sql);
  if (known) return known;
  const statement = prepare(purpose, sql);
  variants.push(statement);
  return statement;
}

// The texts prepared under each purpose: one per call site, a few where a query has variants.
// Looked up by purpose, then compared: a query's text is built afresh on every call, and a
// key made of purpose and text had to be concatenated and hashed each time (1.5 % of a
// one-statement read's CPU in the profile of `pnpm bench`).
const statements = new Map<string, PreparedStatement[]>();

function prepare(purpose: string, sql: string): PreparedStatement {
  let position = 0;
  const text = sql.replace(/\?/g, () => `$${++position}`);
  // A connection keeps the text it first prepared under a name: a changed text gets a new name.
  const digest = hash('sha256', text, 'hex').slice(0, 12);
  return { name: `${purpose}_${digest}`, sql, text };
}

/**
 * Runs the statement on the pool of `em` and returns its rows. MikroORM's query logger sees it
 * as it sees every statement, so query counts and budgets include it. It is for reads outside
 * a transaction: the pool cannot hand out a transaction's connection, and the text form
 * (`em.execute`) binds values differently (it spreads an array into a list).
 */
export async function executePrepared<T extends object>(
  em: EntityManager,
  statement: PreparedStatement,
  params: unknown[],
): Promise<T[]> {
  if (em.isInTransaction()) {
    throw new Error(`${statement.name} is a prepared read and runs outside transactions only`);
  }
  const pool = await databasePool(em);
  const logger = em.config.getLogger();
  const started = Date.now();
  try {
    const result = await pool.query<T>({
      ...(namedStatementsAllowed(pool) ? { name: statement.name } : {}),
      text: statement.text,
      values: params,
    });
    logger.logQuery({
      query: statement.sql,
      params,
      took: Date.now() - started,
      results: result.rowCount ?? undefined,
      level: 'info',
    });
    return result.rows;
  } catch (error) {
    logger.logQuery({ query: statement.sql, params, took: Date.now() - started, level: 'error' });
    throw error;
  }
}

/**
 * The statement's rows: prepared on the pool outside a transaction, as text on the
 * transaction's own connection inside one (the pool cannot hand that connection out).
 */
export function runPrepared<T extends object>(
  em: EntityManager,
  statement: PreparedStatement,
  params: unknown[],
): Promise<T[]> {
  if (em.isInTransaction()) return em.execute<T[]>(statement.sql, params);
  return executePrepared<T>(em, statement, params);
}
