import { createServiceApp, type SharedInfrastructure } from '@foodshare/server-kit';
import type { ApiConfig } from './config.ts';
import { sessionRoutes } from './features/session/session.routes.ts';

/** The REST service under /api. Builds everything, never listens (server.ts does). */
export async function buildApp(config: ApiConfig, shared: SharedInfrastructure = {}) {
  const app = await createServiceApp(config, shared);
  await app.register(sessionRoutes, { prefix: '/api' });
  return app;
}

export type ApiApp = Awaited<ReturnType<typeof buildApp>>;
