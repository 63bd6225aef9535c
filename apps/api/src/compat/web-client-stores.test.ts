import { StoreLogSchema, StoreTeamRequestListSchema, type StoreLog } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import { describe, expect, ids, it } from './fixtures.ts';
import { platformRequest } from './platform-client.ts';

const ALL_ACTIONS = Array.from({ length: 20 }, (_, i) => i + 1);

/**
 * The path client/src/api/stores.js builds in getStoreLog: the days of `dateRange` from the
 * first midnight to the midnight after the last day, as ISO strings, and the action ids,
 * without an `actions` segment.
 */
function webClientLogPath(storeId: number, actionTypes: number[], dateRange: [Date, Date]) {
  const [from, to] = dateRange.map((date) => new Date(date));
  from!.setHours(0, 0, 0, 0);
  to!.setHours(24, 0, 0, 0);
  return `/api/stores/${storeId}/log/${from!.toISOString()}/${to!.toISOString()}/${actionTypes.join(',')}`;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

// The calls of the platform's web client in client/src/api/stores.js for the store log and
// the team requests.
describe('web client stores.js against the store log and team requests', () => {
  it('getStoreLog', async ({ app, as }) => {
    const alice = await as('alice');
    const path = webClientLogPath(ids.storeId, ALL_ACTIONS, [daysAgo(180), new Date()]);
    const response = await platformRequest(app, alice, { method: 'GET', url: path });
    expect(response.statusCode).toBe(200);
    const log = response.json<StoreLog>();
    expect(Value.Errors(StoreLogSchema, log)).toEqual([]);
    expect(log).toHaveLength(8);
    const times = log.map((entry) => Date.parse(entry.performedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The later version pages with `?offset=`.
    const paged = await platformRequest(app, alice, { method: 'GET', url: `${path}?offset=6` });
    expect(paged.statusCode).toBe(200);
    expect(paged.json()).toEqual(log.slice(6));
  });

  it('getStoreLog for a team member who does not run the store', async ({ app, as }) => {
    const kim = await as('kim');
    const path = webClientLogPath(ids.storeId, ALL_ACTIONS, [daysAgo(7), new Date()]);
    const response = await platformRequest(app, kim, { method: 'GET', url: path });
    expect(response.statusCode).toBe(403);
  });

  it('listStoreTeamMembershipRequests', async ({ app, as }) => {
    const alice = await as('alice');
    const response = await platformRequest(app, alice, {
      method: 'GET',
      url: `/api/stores/${ids.storeId}/requests`,
    });
    expect(response.statusCode).toBe(200);
    expect(Value.Errors(StoreTeamRequestListSchema, response.json())).toEqual([]);
    expect(response.json()).toMatchObject([
      {
        user: { id: ids.users.bob, name: 'Bob Beispiel' },
        firstName: 'Bob',
        verified: true,
        distanceInKm: 10,
      },
    ]);
  });
});
