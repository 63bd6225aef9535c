import { hashClientSecret } from '../oauth-clients/client-secrets.ts';
import {
  DEVICE_CODE_GRANT_TYPE,
  insertOAuthClient,
  validateOAuthClientInput,
  type OAuthClientInput,
} from '../oauth-clients/oauth-clients.service.ts';
import type { EntityManager } from '../db/orm.ts';
import { DEMO_CLIENT_SECRET, DEMO_REDIRECT_URI, DemoClientId, DemoRegionId } from './demo-ids.ts';

/** The three demo OAuth clients (demo-public also for devices); `pepper` hashes the confidential client's secret. */
export async function createDemoClients(em: EntityManager, pepper: string): Promise<void> {
  const common = {
    redirectUris: [DEMO_REDIRECT_URI],
    scopes: ['openid', 'profile', 'email', 'regions'],
    grantTypes: ['authorization_code', 'refresh_token'],
  } satisfies Partial<OAuthClientInput>;
  const clients: [OAuthClientInput, secret: string | null][] = [
    [
      {
        ...common,
        clientId: DemoClientId.public,
        name: 'Demo-App (öffentlich)',
        confidential: false,
        // `pnpm oidc:demo` signs a device in through it too (RFC 8628).
        grantTypes: [...common.grantTypes, DEVICE_CODE_GRANT_TYPE],
      },
      null,
    ],
    [
      {
        ...common,
        clientId: DemoClientId.confidential,
        name: 'Demo-Server (vertraulich)',
        confidential: true,
      },
      DEMO_CLIENT_SECRET,
    ],
    [
      {
        ...common,
        clientId: DemoClientId.regional,
        name: 'Demo-App Musterstadt',
        confidential: false,
        requiredRegionIds: [DemoRegionId.Musterstadt],
      },
      null,
    ],
  ];
  for (const [input, secret] of clients) {
    const settings = validateOAuthClientInput(input);
    await insertOAuthClient(
      em,
      settings,
      secret === null ? null : hashClientSecret(secret, pepper),
      null,
    );
  }
}
