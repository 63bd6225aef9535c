import { SEARCH_INDEX_STATEMENT_NAME } from './features/search/search-index.sql.ts';
import { describe, expect, ids, it, test } from './test-support/fixtures.ts';
import {
  countCall,
  type CountedCall,
  growSpecData,
  signInDemoUsers,
  specCalls,
} from './test-support/query-budget.ts';

/**
 * SQL statements per request of each row of docs/spec.md §4.1, begin and commit included: what
 * the endpoint reads and writes (the caller's account comes with the session, docs/design.md
 * §3.11). The budget is "a few, whatever the
 * data size" (docs/design.md §3.11); a change of these numbers is a decision, made here on
 * purpose.
 */
const BUDGET: Record<number, number> = {
  1: 1, // GET forum post hide state: the post facts
  2: 2, // send a message: the membership (403 before the body), one statement that locks, stores and marks
  3: 1, // reports of a user
  4: 2, // decline a work-group application: the group's facts, the delete
  5: 5, // confirm a passed quiz: begin, the locked session, one statement that marks and raises, commit, the account for the sessions
  6: 1, // search index, built (one kept whose data changed adds its version row: search-index-cache.routes.test.ts)
  7: 2, // passport PDF, recorded
  8: 2, // store log: the store facts, then the page of the log
  9: 1, // read a chain: the chain with its relations
  10: 2, // read status: the membership, the update
  11: 6, // update a chain: the chain (403 before the body), begin, the locked chain, its facts, the update, commit
  12: 1, // own resources: one query that checks the account itself
  13: 2, // delete a banana: the caller's IT support role, the delete
  14: 2, // delete a quiz answer
  15: 2, // region options: the facts, then one statement that writes
  16: 1, // read a region: the region
  17: 2, // give a banana: the recipient's facts, the insert
  18: 2, // store team requests: the store facts, then the requests
};

/** Enough rows that anything done per row would show in the count, many times over. */
const GROWN_BY = 300;

describe('the query budget of every endpoint of docs/spec.md §4.1', () => {
  const before = new Map<number, CountedCall>();
  const after = new Map<number, CountedCall>();
  const calls = specCalls(ids);

  // The set-up runs outside the counted requests: countQueries counts only during each call.
  test.beforeAll(async ({ app, sql }) => {
    // Each round on sessions signed in just before it (their account facts young throughout),
    // and with no kept search index, which the first round would leave to the second.
    const round = async (counts: Map<number, CountedCall>) => {
      const clients = await signInDemoUsers(app, ids);
      await app.kv.delete(`search-index:${SEARCH_INDEX_STATEMENT_NAME}:${ids.users.alice}`);
      for (const call of calls) counts.set(call.row, await countCall(app, clients, call, sql));
    };
    await round(before);
    await growSpecData(sql, ids, GROWN_BY);
    await round(after);
  }, 120_000);

  it('has a call and a budget for each of the 18 rows', () => {
    const rows = Array.from({ length: 18 }, (_, index) => index + 1);
    expect(calls.map((call) => call.row)).toEqual(rows);
    expect(Object.keys(BUDGET).map(Number)).toEqual(rows);
  });

  it.each(calls.map((call) => [call.row, call.method] as const))(
    'row %i (%s) sends exactly its budget of statements, before and after the data grows',
    (row) => {
      const small = before.get(row);
      const grown = after.get(row);
      expect(small?.status, small?.label).toBeLessThan(300);
      expect(grown?.status, grown?.label).toBeLessThan(300);
      expect({ before: small?.queries, after: grown?.queries }).toEqual({
        before: BUDGET[row],
        after: BUDGET[row],
      });
    },
  );
});
