import { type EntityManager, namedStatement } from '@foodshare/domain';
import type { SqlQuery } from '@foodshare/domain';
import type { Sql } from './sql.ts';

/** A node of PostgreSQL's `EXPLAIN (FORMAT JSON)`, with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Alias?: string;
  /** With ANALYZE: rows per loop, and how many loops. */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** The plan's nodes, the root first, then each subtree in order. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

type ExplainRows = { 'QUERY PLAN': [{ Plan: PlanNode }] }[];

/** How many generic plans this test file has explained: each gets a statement name of its own. */
let explained = 0;

/** The plan PostgreSQL makes for a route's query with its values, not run. */
export async function explainQuery(sql: Sql, query: SqlQuery): Promise<PlanNode[]> {
  const rows = await sql<ExplainRows>(`explain (format json) ${query.sql}`, query.params);
  return planNodes(rows[0]!['QUERY PLAN'][0].Plan);
}

/**
 * The query run as the prepared statement it is on a pooled connection, under the plan such a
 * statement keeps: made for any value, as the average row has it (forced here, as PostgreSQL
 * chooses it after five executions), with each node's actual rows.
 */
export async function explainGenericPlan(em: EntityManager, query: SqlQuery): Promise<PlanNode> {
  const statement = namedStatement(query.sql);
  // A name of its own per call: a failed EXPLAIN rolls back without its DEALLOCATE (neither
  // is transactional), and the name it left on that pooled connection must not make the next
  // call fail for a reason that is not its own.
  const name = `explain_test_${(explained += 1)}`;
  const placeholders = query.params.map(() => '?').join(', ');
  return em.fork().transactional(async (tx) => {
    await tx.execute('set local plan_cache_mode = force_generic_plan');
    await tx.execute(`prepare ${name} as ${statement.text}`);
    const [row] = await tx.execute<ExplainRows>(
      `explain (analyze, format json) execute ${name}(${placeholders})`,
      query.params,
    );
    await tx.execute(`deallocate ${name}`);
    return row!['QUERY PLAN'][0].Plan;
  });
}
