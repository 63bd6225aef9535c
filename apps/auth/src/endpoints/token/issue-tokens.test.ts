import { decodeJwt } from 'jose';
import { servicesOf } from '../../test-support/build-test-app.ts';
import { DemoClientId } from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it } from '../../test-support/fixtures.ts';
import { planAccessToken, signTokens } from './issue-tokens.ts';

describe('signTokens', () => {
  it('gives the access and ID tokens exp - iat of exactly the lifetime, though a second turned since the plan', async ({
    app,
  }) => {
    const services = servicesOf(app);
    const now = Date.now();
    const { response } = await signTokens(services, {
      family: {
        id: 'family-1',
        userId: ids.users.alice,
        clientId: DemoClientId.public,
        scopes: ['openid'],
        authTime: Math.floor(now / 1000),
        createdAt: now,
        databaseCreatedAt: now,
      },
      begins: true,
      scopes: ['openid'],
      // Planned 1.5 s before signing, as a slow redemption would.
      accessToken: planAccessToken(services, now - 1500),
      nonce: null,
      withRefreshToken: false,
      user: {
        id: ids.users.alice,
        first_name: 'Alice',
        last_name: 'A',
        email: 'alice@example.org',
        avatar_upload_id: null,
        region_ids: null,
        admin_region_ids: null,
        workgroup_ids: null,
      },
    });
    const lifetime = services.config.ACCESS_TOKEN_TTL_SECONDS;
    for (const token of [response.access_token, response.id_token!]) {
      const { iat, exp } = decodeJwt(token);
      expect(exp! - iat!).toBe(lifetime);
    }
  });
});
