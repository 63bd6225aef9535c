import { SearchIndexSchema, type SearchIndex } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import { describe, expect, ids, it } from './fixtures.ts';
import { platformRequest } from './platform-client.ts';

// The calls of the platform's web client in client/src/api/search.js that read the index.
describe('web client search.js against GET /api/search/index', () => {
  it('getSearchIndex', async ({ app, as }) => {
    // get('/search/index'): no body, the session cookie.
    const response = await platformRequest(app, await as('bob'), {
      method: 'GET',
      url: '/api/search/index',
    });
    expect(response.statusCode).toBe(200);
    const index = response.json<SearchIndex>();
    expect(Value.Errors(SearchIndexSchema, index)).toEqual([]);
    // The client builds its local search from `name` and `searchString` of every entry.
    for (const entries of Object.values(index)) {
      for (const entry of entries as { name: unknown; searchString: unknown }[]) {
        expect(typeof entry.name).toBe('string');
        expect(typeof entry.searchString).toBe('string');
      }
    }
    expect(index.regions[0]?.email).toBe('beispieldorf@foodsharing.network');
    // bob's one confirmed buddy is alice, without her last name, phone or mail address.
    expect(index.users).toMatchObject([
      { id: ids.users.alice, name: 'Alice', lastName: null, mobile: null, email: null },
    ]);
  });

  it('getSearchIndex without a session', async ({ app }) => {
    const response = await platformRequest(app, null, { method: 'GET', url: '/api/search/index' });
    expect(response.statusCode).toBe(401);
  });
});
