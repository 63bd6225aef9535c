import { SearchIndexSchema, type SearchIndex } from '@foodshare/schemas';
import { signInAs } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';
import { platformRequest } from './platform-client.ts';

const ids = inject('demoIds');

// The calls of the platform's web client in client/src/api/search.js that read the index.
describe('web client search.js against GET /api/search/index', () => {
  let app: ApiApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
  });

  afterAll(async () => {
    await app.close();
  });

  it('getSearchIndex', async () => {
    // get('/search/index'): no body, the session cookie.
    const response = await platformRequest(app, await signInAs(app, ids.users.bob), {
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

  it('getSearchIndex without a session', async () => {
    const response = await platformRequest(app, null, { method: 'GET', url: '/api/search/index' });
    expect(response.statusCode).toBe(401);
  });
});
