import { runServer } from '@foodshare/server-kit';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig(process.env);
await runServer(await buildApp(config), { host: config.HOST, port: config.PORT });
