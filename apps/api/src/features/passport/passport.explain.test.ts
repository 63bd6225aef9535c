import { preparedStatement } from '@foodshare/domain';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { generationsQuery, PASSPORT_GENERATIONS_LIMIT } from './passport.sql.ts';

const JOINS = ['Nested Loop', 'Hash Join', 'Merge Join'];

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('the passport generations of a user who made many, as a prepared statement', () => {
  it('looks up who made each generation for the listed ones only', async ({
    app,
    factory,
    sql,
  }) => {
    const holder = await factory.user({ role: 1, verified: true });
    const maker = await factory.user({ role: 2, verified: true });
    // More generations than the list shows, and no statistics on them: the plan is made for a
    // table PostgreSQL knows nothing about, as on a database autovacuum has not analysed yet
    // (the grown bench data, where it read, joined and sorted all 10,000 of alice's).
    const recorded = PASSPORT_GENERATIONS_LIMIT * 3;
    await sql(
      `insert into passport_generations (user_id, generated_by_id, created_at)
       select ?, ?, now() - g * interval '1 hour' from generate_series(1, ?) g`,
      [holder, maker, recorded],
    );
    const { sql: text, params } = generationsQuery(holder);
    const statement = preparedStatement('generations_explain_test', text);
    const plan = await app.orm.em.fork().transactional(async (em) => {
      await em.execute('set local plan_cache_mode = force_generic_plan');
      await em.execute(`prepare generations_explain_test as ${statement.text}`);
      const [row] = await em.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
        `explain (analyze, format json) execute generations_explain_test(${params.map(() => '?').join(', ')})`,
        params,
      );
      await em.execute('deallocate generations_explain_test');
      return row!['QUERY PLAN'][0].Plan;
    });
    expect(plan['Actual Rows']).toBe(PASSPORT_GENERATIONS_LIMIT);
    // Every join (the owner's row, who made each generation) is made for the listed
    // generations only, never for every one recorded.
    const joins = nodes(plan).filter((node) => JOINS.includes(node['Node Type']));
    expect(joins).not.toEqual([]);
    for (const join of joins) {
      expect((join['Actual Rows'] ?? 0) * (join['Actual Loops'] ?? 1)).toBeLessThanOrEqual(
        PASSPORT_GENERATIONS_LIMIT,
      );
    }
  });
});
