import { startTracing } from '@foodshare/server-kit/tracing';

// Tracing first, when configured: it hooks http, pg and ioredis as they load, so the rest of
// the service is imported only after it (its failure line too, once tracing did not start).
try {
  await startTracing(process.env, 'foodshare-api');
} catch (error) {
  const { exitOnStartupFailure } = await import('@foodshare/server-kit');
  await exitOnStartupFailure('api', error, {});
}
const { startService } = await import('@foodshare/server-kit');
const { buildApp } = await import('./app.ts');
const { loadConfig } = await import('./config.ts');

await startService({ name: 'api', env: process.env, loadConfig, buildApp });
