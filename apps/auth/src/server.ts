import { startTracing } from '@foodshare/server-kit/tracing';

// Tracing first, when configured: it hooks http, pg and ioredis as they load, so the rest of
// the service is imported only after it.
await startTracing(process.env, 'foodshare-auth');
const { runServer } = await import('@foodshare/server-kit');
const { buildApp } = await import('./app.ts');
const { loadConfig } = await import('./config.ts');

const config = loadConfig(process.env);
await runServer(await buildApp(config), { host: config.HOST, port: config.PORT });
