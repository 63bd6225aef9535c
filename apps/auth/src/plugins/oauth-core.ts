import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthConfig } from '../config.ts';
import { AuthorizationCodeStore } from '../stores/authorization-codes.store.ts';

/** The authorization server's shared parts, built once per app and used by every endpoint. */
export interface OAuthCore {
  config: AuthConfig;
  /** `BASE_URL`, byte-identical in discovery and in every token's `iss`. */
  issuer: string;
  codes: AuthorizationCodeStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    oauth: OAuthCore;
  }
}

export const oauthCorePlugin = fp(
  async (app: FastifyInstance, { config }: { config: AuthConfig }) => {
    const oauth: OAuthCore = {
      config,
      issuer: config.BASE_URL,
      codes: new AuthorizationCodeStore(app.kv, config.AUTHORIZATION_CODE_TTL_SECONDS * 1000),
    };
    app.decorate('oauth', oauth);
  },
  { name: 'foodshare-oauth-core', dependencies: ['foodshare-key-value-store'] },
);
