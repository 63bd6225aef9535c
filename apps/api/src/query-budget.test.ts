import { describe, expect, ids, it, test } from './test-support/fixtures.ts';
import {
  countCall,
  type CountedCall,
  growSpecData,
  signInDemoUsers,
  specCalls,
} from './test-support/query-budget.ts';

/**
 * SQL statements per request of each row of docs/spec.md §4.1, begin and commit included: the
 * caller's account, then what the endpoint reads and writes. The budget is "a few, whatever the
 * data size" (docs/design.md §3.11); a change of these numbers is a decision, made here on
 * purpose.
 */
const BUDGET: Record<number, number> = {
  1: 2, // GET forum post hide state: the account, the post facts
  2: 3, // send a message: the account, the membership (403 before the body), one statement that locks, stores and marks
  3: 2, // reports of a user
  4: 3, // decline a work-group application: the account, the group's facts, the delete
  5: 5, // confirm a passed quiz: the account, begin, the locked session, one statement that marks and raises, commit
  6: 2, // search index
  7: 3, // passport PDF, recorded
  8: 3, // store log: the account, the store facts, then the page of the log
  9: 2, // read a chain: the account, the chain with its relations
  10: 3, // read status: the account, the membership, the update
  11: 7, // update a chain: the account, the chain (403 before the body), begin, the locked chain, its facts, the update, commit
  12: 1, // own resources: one query that checks the account itself
  13: 3, // delete a banana: the account, the caller's IT support role, the delete
  14: 3, // delete a quiz answer
  15: 3, // region options: the account, the facts, then one statement that writes
  16: 2, // read a region: the account, the region
  17: 3, // give a banana: the account, the recipient's facts, the insert
  18: 3, // store team requests: the account, the store facts, then the requests
};

/** Enough rows that anything done per row would show in the count, many times over. */
const GROWN_BY = 300;

describe('the query budget of every endpoint of docs/spec.md §4.1', () => {
  const before = new Map<number, CountedCall>();
  const after = new Map<number, CountedCall>();
  const calls = specCalls(ids);

  // The set-up runs outside the counted requests: countQueries counts only during each call.
  test.beforeAll(async ({ app, sql }) => {
    const clients = await signInDemoUsers(app, ids);
    for (const call of calls) before.set(call.row, await countCall(app, clients, call, sql));
    await growSpecData(sql, ids, GROWN_BY);
    for (const call of calls) after.set(call.row, await countCall(app, clients, call, sql));
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
