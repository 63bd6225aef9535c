import formBody from '@fastify/formbody';
import { createServiceApp, serviceRelease, type SharedInfrastructure } from '@foodshare/server-kit';
import { oauthClientsAdminRoutes } from './admin/oauth-clients.routes.ts';
import { authServicesPlugin, buildAuthServices, type AuthServices } from './auth-services.ts';
import type { AuthConfig } from './config.ts';
import { authorizeRoutes } from './endpoints/authorize/authorize.routes.ts';
import { deviceAuthorizationRoutes } from './endpoints/device-authorization/device-authorization.routes.ts';
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
import { deviceRoutes } from './interactions/device/device.routes.ts';
import { loginRoutes } from './interactions/login/login.routes.ts';
import { pagesPlugin } from './plugins/pages.ts';

/**
 * The authorization server (/oauth, /.well-known, /admin and its pages). It reads the
 * same sessions as the REST service, so a user logged in there is logged in here.
 * Builds everything, never listens (server.ts does). Answers the services too, for tests.
 */
export async function buildAuthServer(
  config: AuthConfig,
  shared: SharedInfrastructure = {},
): Promise<{ app: AuthApp; services: AuthServices }> {
  const release = serviceRelease(
    new URL('../package.json', import.meta.url),
    config.RELEASE_COMMIT,
  );
  const app = await createServiceApp('auth', config, shared, release);
  const services = buildAuthServices(config, { orm: app.orm, kv: app.kv, log: app.log });
  // The token endpoint and the pages' forms are application/x-www-form-urlencoded.
  await app.register(formBody);
  await app.register(authServicesPlugin, services);
  // Protocol endpoints, each given the services it uses.
  await app.register(discoveryRoutes, services);
  await app.register(jwksRoutes, services);
  await app.register(authorizeRoutes, services);
  await app.register(parRoutes, services);
  await app.register(tokenRoutes, services);
  await app.register(deviceAuthorizationRoutes, services);
  await app.register(userinfoRoutes, services);
  await app.register(revokeRoutes, services);
  await app.register(introspectRoutes, services);
  await app.register(logoutRoutes, services);
  // Pages a person sees.
  await app.register(pagesPlugin, { config });
  await app.register(loginRoutes, services);
  await app.register(consentRoutes, services);
  await app.register(deviceRoutes, services);
  await app.register(connectedAppsRoutes, services);
  await app.register(oauthClientsAdminRoutes, services);
  return { app, services };
}

/** The authorization server alone (`buildAuthServer`), as server.ts and scripts/start.ts run it. */
export async function buildApp(config: AuthConfig, shared: SharedInfrastructure = {}) {
  return (await buildAuthServer(config, shared)).app;
}

export type AuthApp = Awaited<ReturnType<typeof createServiceApp>>;
