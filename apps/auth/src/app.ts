import formBody from '@fastify/formbody';
import { createServiceApp, serviceRelease, type SharedInfrastructure } from '@foodshare/server-kit';
import { oauthClientsAdminRoutes } from './admin/oauth-clients.routes.ts';
import type { AuthConfig } from './config.ts';
import { authorizeRoutes } from './endpoints/authorize/authorize.routes.ts';
import { discoveryRoutes } from './endpoints/discovery/discovery.routes.ts';
import { introspectRoutes } from './endpoints/introspect/introspect.routes.ts';
import { jwksRoutes } from './endpoints/jwks/jwks.routes.ts';
import { logoutRoutes } from './endpoints/logout/logout.routes.ts';
import { parRoutes } from './endpoints/par/par.routes.ts';
import { revokeRoutes } from './endpoints/revoke/revoke.routes.ts';
import { tokenRoutes } from './endpoints/token/token.routes.ts';
import { userinfoRoutes } from './endpoints/userinfo/userinfo.routes.ts';
import { connectedAppsRoutes } from './interactions/connected-apps/connected-apps.routes.ts';
import { consentRoutes } from './interactions/consent/consent.routes.ts';
import { loginRoutes } from './interactions/login/login.routes.ts';
import { backchannelLogoutPlugin } from './backchannel-logout/backchannel-logout.ts';
import { consentsPlugin } from './plugins/consents.ts';
import { oauthCorePlugin } from './auth-services.ts';
import { pagesPlugin } from './plugins/pages.ts';
import { tokenStatePlugin } from './tokens/grant-revocation.ts';

/**
 * The authorization server (/oauth, /.well-known, /admin and its pages). It reads the
 * same sessions as the REST service, so a user logged in there is logged in here.
 * Builds everything, never listens (server.ts does).
 */
export async function buildApp(config: AuthConfig, shared: SharedInfrastructure = {}) {
  const release = serviceRelease(
    new URL('../package.json', import.meta.url),
    config.RELEASE_COMMIT,
  );
  const app = await createServiceApp('auth', config, shared, release);
  // The token endpoint and the pages' forms are application/x-www-form-urlencoded.
  await app.register(formBody);
  await app.register(oauthCorePlugin, { config });
  await app.register(tokenStatePlugin);
  await app.register(backchannelLogoutPlugin);
  await app.register(consentsPlugin);
  // Protocol endpoints.
  await app.register(discoveryRoutes);
  await app.register(jwksRoutes);
  await app.register(authorizeRoutes);
  await app.register(parRoutes);
  await app.register(tokenRoutes);
  await app.register(userinfoRoutes);
  await app.register(revokeRoutes);
  await app.register(introspectRoutes);
  await app.register(logoutRoutes);
  // Pages a person sees.
  await app.register(pagesPlugin, { config });
  await app.register(loginRoutes);
  await app.register(consentRoutes);
  await app.register(connectedAppsRoutes);
  await app.register(oauthClientsAdminRoutes);
  return app;
}

export type AuthApp = Awaited<ReturnType<typeof buildApp>>;
