import { createServiceApp, type SharedInfrastructure } from '@foodshare/server-kit';
import type { AuthConfig } from './config.ts';

/**
 * The authorization server (/oauth, /.well-known, /admin and its pages). It reads the
 * same sessions as the REST service, so a user logged in there is logged in here.
 * Builds everything, never listens (server.ts does).
 */
export async function buildApp(config: AuthConfig, shared: SharedInfrastructure = {}) {
  return createServiceApp(config, shared);
}

export type AuthApp = Awaited<ReturnType<typeof buildApp>>;
