import { describe, expect, it } from '../../test-support/fixtures.ts';
import { explainGenericPlan, planNodes } from '../../test-support/query-plans.ts';
import { generationsQuery, PASSPORT_GENERATIONS_LIMIT } from './passport.sql.ts';

const JOINS = ['Nested Loop', 'Hash Join', 'Merge Join'];

describe('the passport generations of a user who made many, as a prepared statement', () => {
  it('joins who made each generation for the listed ones only', async ({ app, factory, sql }) => {
    const holder = await factory.user({ role: 1, verified: true });
    const maker = await factory.user({ role: 2, verified: true });
    // More generations than the list shows, and no statistics on them: the plan is made for a
    // table PostgreSQL knows nothing about, as on a database autovacuum has not analysed yet
    // (the grown bench data, where it read, joined and sorted all 10,000 of alice's).
    await sql(
      `insert into passport_generations (user_id, generated_by_id, created_at)
       select ?, ?, now() - g * interval '1 hour' from generate_series(1, ?) g`,
      [holder, maker, PASSPORT_GENERATIONS_LIMIT * 3],
    );
    const plan = await explainGenericPlan(app.orm.em, generationsQuery(holder));
    expect(plan['Actual Rows']).toBe(PASSPORT_GENERATIONS_LIMIT);
    // Every join (the owner's row, who made each generation) is made for the listed
    // generations only, never for every one recorded.
    const joins = planNodes(plan).filter((node) => JOINS.includes(node['Node Type']));
    expect(joins).not.toEqual([]);
    for (const join of joins) {
      expect((join['Actual Rows'] ?? 0) * (join['Actual Loops'] ?? 1)).toBeLessThanOrEqual(
        PASSPORT_GENERATIONS_LIMIT,
      );
    }
  });
});
