import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AuthorizationRequestStore } from '../stores/authorization-requests.store.ts';
import { ConsentStore } from '@foodshare/server-kit/oauth-grants';
import { PushedAuthorizationRequestStore } from '../stores/pushed-authorization-requests.store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Remembered consent per user and client. */
    consents: ConsentStore;
    /** Authorization requests parked while the user logs in or decides on consent. */
    authorizationRequests: AuthorizationRequestStore;
    /** Requests pushed to /oauth/par, until /oauth/authorize takes them (RFC 9126). */
    pushedRequests: PushedAuthorizationRequestStore;
  }
}

/**
 * The user-interaction state of the authorization endpoint: remembered consent, pushed requests
 * and the requests waiting at the login and consent pages (owner: authorize endpoint and its pages).
 */
export const consentsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('consents', new ConsentStore(app.kv));
    app.decorate('authorizationRequests', new AuthorizationRequestStore(app.kv));
    app.decorate('pushedRequests', new PushedAuthorizationRequestStore(app.kv));
  },
  { name: 'foodshare-consents', dependencies: ['foodshare-oauth-core'] },
);
