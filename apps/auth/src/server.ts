import { startService } from '@foodshare/server-kit';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

await startService({ name: 'auth', env: process.env, loadConfig, buildApp });
