import {
  createServiceApp,
  metricsPlugin,
  ServiceMetrics,
  serviceRelease,
  type SharedInfrastructure,
} from '@foodshare/server-kit';
import type { ApiConfig } from './config.ts';
import { bananasRoutes } from './features/bananas/bananas.routes.ts';
import { chainsRoutes } from './features/chains/chains.routes.ts';
import { conversationsRoutes } from './features/conversations/conversations.routes.ts';
import { forumRoutes } from './features/forum/forum.routes.ts';
import { passportRoutes } from './features/passport/passport.routes.ts';
import { quizzesRoutes } from './features/quizzes/quizzes.routes.ts';
import { regionsRoutes } from './features/regions/regions.routes.ts';
import { reportsRoutes } from './features/reports/reports.routes.ts';
import { resourcesRoutes } from './features/resources/resources.routes.ts';
import { searchRoutes } from './features/search/search.routes.ts';
import { sessionRoutes } from './features/session/session.routes.ts';
import { storeLogRoutes } from './features/store-log/store-log.routes.ts';
import { storeRequestsRoutes } from './features/stores/store-requests.routes.ts';
import { uploadsRoutes } from './features/uploads/uploads.routes.ts';
import { workGroupsRoutes } from './features/work-groups/work-groups.routes.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { accessTokensPlugin } from './plugins/access-tokens.ts';
import { callerPlugin } from './plugins/caller.ts';
import { platformWireFormat } from './plugins/platform-wire-format.ts';

/** One plugin per feature folder, each mounted under /api. */
const features = [
  sessionRoutes,
  bananasRoutes,
  chainsRoutes,
  conversationsRoutes,
  forumRoutes,
  passportRoutes,
  quizzesRoutes,
  regionsRoutes,
  reportsRoutes,
  resourcesRoutes,
  searchRoutes,
  storeLogRoutes,
  storeRequestsRoutes,
  uploadsRoutes,
  workGroupsRoutes,
];

/** The REST service under /api. Builds everything, never listens (server.ts does). */
export async function buildApp(config: ApiConfig, shared: SharedInfrastructure = {}) {
  const release = serviceRelease(
    new URL('../package.json', import.meta.url),
    config.RELEASE_COMMIT,
  );
  const app = await createServiceApp('api', config, shared, release);
  app.decorate('config', config);
  await app.register(metricsPlugin, { metrics: new ServiceMetrics() });
  // Before the routes: @fastify/swagger collects them as they are added.
  await app.register(openApiPlugin, { baseUrl: config.BASE_URL });
  // The features in a context of their own, so that every route of theirs says how it gets its
  // caller (checked at boot) and speaks the platform's wire format; the documentation and the
  // health checks stay outside.
  await app.register(async (api) => {
    callerPlugin(api);
    await accessTokensPlugin(api, config);
    platformWireFormat(api, config.BASE_URL);
    for (const feature of features) await api.register(feature, { prefix: '/api' });
  });
  return app;
}

export type ApiApp = Awaited<ReturnType<typeof buildApp>>;
