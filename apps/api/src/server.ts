import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig(process.env);
const app = await buildApp(config);
await app.listen({ host: config.HOST, port: config.PORT });

// On SIGTERM: stop accepting, let in-flight requests finish, then close PostgreSQL and
// Redis (onClose hooks). A second signal, or 10 s, forces the exit.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
});
