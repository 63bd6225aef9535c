import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthConfig } from '../config.ts';
import { STYLESHEET, STYLESHEET_PATH } from '../pages/stylesheet.ts';

export interface PageSettings {
  /** The platform's name in every page's header and title (PLATFORM_NAME). */
  platformName: string;
  /** The platform's own password reset page (PASSWORD_RESET_URL); null, no link. */
  passwordResetUrl: string | null;
  /** The host the pages are served from, named in their footer so a copy elsewhere shows. */
  host: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the pages say about the platform itself (docs/oauth.md §2.11). */
    pageSettings: PageSettings;
  }
}

/**
 * The frame every page of this service shares: the platform's name and the one stylesheet.
 * The stylesheet's URL carries its version, so it may be cached for a day.
 */
export const pagesPlugin = fp(
  async (app: FastifyInstance, { config }: { config: AuthConfig }) => {
    app.decorate('pageSettings', {
      platformName: config.PLATFORM_NAME,
      passwordResetUrl: config.PASSWORD_RESET_URL ?? null,
      host: new URL(config.BASE_URL).host,
    });
    app.get(STYLESHEET_PATH, async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(STYLESHEET),
    );
  },
  { name: 'foodshare-pages' },
);
