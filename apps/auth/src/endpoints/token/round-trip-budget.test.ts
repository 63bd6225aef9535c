import { RedisKeyValueStore } from '@foodshare/server-kit';
import { countQueries } from '@foodshare/server-kit/test-support';
import { workerRedis } from '@foodshare/testing';
import type { AuthApp } from '../../app.ts';
import { countingKeyValueStore } from '../../test-support/counting-key-value-store.ts';
import {
  confidentialBasic,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  tokenRequest,
} from '../../test-support/token-helpers.ts';
import type { TokenResponse } from './issue-tokens.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

/**
 * Round trips to Redis and SQL statements of one token response, counted on the real store and
 * database: the token endpoint's cost beside its two signatures is mostly these (docs/design.md
 * §3.11). A change of these numbers is a decision, made here on purpose. Each inner list is one
 * round trip, its calls in the order Redis runs them: the reads that must see the response's
 * writes (the tombstone, the code's void mark) come after them.
 */
// The client's failure guard read and its token budget spent in one atomic step (the secret was
// checked in the process, on the client's row as the instance remembers it), the version of that
// row (docs/oauth.md §6.4), and the grant's first reads behind them.
const CLIENT_CHECK = ['incrementUnlessReached', 'get'];
const REDIS_ROUND_TRIPS = {
  authorization_code: [
    [...CLIENT_CHECK, 'getMany'], // the code, its redemption marker and its client's cutoff
    // the redemption marker (the code is used up; the rest counts only if it was set), the
    // family, its refresh generation, the grant indexes, the access token, the tombstone, then
    // the code's void marks (for its client, and for every client after a password reset)
    ['setIfAbsent', 'set', 'set', 'addToIndex', 'addToIndex', 'addToIndex', 'get', 'getMany'],
  ],
  refresh_token: [
    [...CLIENT_CHECK, 'getMany'], // the family, its tombstone and its client's cutoff
    ['setIfAbsent', 'get'], // the rotation lease, then the generation
    // the next generation, the family's lifetime, the grant indexes, the access token, the
    // tombstone
    ['set', 'expire', 'addToIndex', 'addToIndex', 'addToIndex', 'get'],
    ['setUnlessLeasedToOther'], // the presented token marked rotated, if the lease is still ours
  ],
};

// The client's row is remembered from the first exchange (docs/oauth.md §6.4).
const SQL_BUDGET = {
  // the user
  authorization_code: 1,
  // whether the user still holds the grant
  refresh_token: 1,
};

// The app's store counts its round trips; the app closes before the store does.
let counting: ReturnType<typeof countingKeyValueStore>;
// eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from it
test.override('appShared', { scope: 'file' }, async ({}, { onCleanup }) => {
  const store = await new RedisKeyValueStore(workerRedis('token-budget')).connect();
  onCleanup(() => store.close());
  counting = countingKeyValueStore(store);
  return { kv: counting.store };
});

describe('round trips to Redis and statements of the token endpoint', () => {
  async function counted(app: AuthApp, request: () => ReturnType<typeof tokenRequest>) {
    counting.roundTrips.length = 0;
    const { result: response, queries } = await countQueries(app.orm, request);
    expect(response.statusCode, response.body).toBe(200);
    return {
      tokens: response.json<TokenResponse>(),
      roundTrips: [...counting.roundTrips],
      queries,
    };
  }

  const newCode = (app: AuthApp) =>
    issueCode(app, { clientId: DemoClientId.confidential, userId: ids.users.alice });
  const exchange = (app: AuthApp, code: string) =>
    tokenRequest(
      app,
      { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
      { authorization: confidentialBasic() },
    );

  it('exchanges a code and refreshes within the budget', async ({ app }) => {
    // The first token response of a new database makes the signing key: not counted.
    expect((await exchange(app, await newCode(app))).statusCode).toBe(200);
    const code = await newCode(app);
    const exchanged = await counted(app, () => exchange(app, code));
    expect(exchanged.roundTrips).toEqual(REDIS_ROUND_TRIPS.authorization_code);
    expect(exchanged.queries).toBe(SQL_BUDGET.authorization_code);

    const refresh = await counted(app, () =>
      tokenRequest(
        app,
        { grant_type: 'refresh_token', refresh_token: exchanged.tokens.refresh_token ?? '' },
        { authorization: confidentialBasic() },
      ),
    );
    expect(refresh.roundTrips).toEqual(REDIS_ROUND_TRIPS.refresh_token);
    expect(refresh.queries).toBe(SQL_BUDGET.refresh_token);
  });
});
