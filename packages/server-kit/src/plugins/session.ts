import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { LoginThrottle, type LoginThrottleLimits } from '../session/login-throttle.ts';
import {
  DEFAULT_SESSION_LIFETIMES,
  type Session,
  type SessionLifetimes,
  SessionStore,
} from '../session/session-store.ts';

export const SESSION_COOKIE = 'fs_session';
export const CSRF_COOKIE = 'fs_csrf';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
    sessionCookies: SessionCookies;
    loginThrottle: LoginThrottle;
  }
  interface FastifyRequest {
    /** The caller's session, or null when the request carries none that is live. */
    session: Session | null;
  }
}

export interface SessionPluginOptions {
  /** `Secure` cookies: on wherever the service is reached over HTTPS (production). */
  secureCookies: boolean;
  lifetimes?: SessionLifetimes;
  loginThrottle?: LoginThrottleLimits;
}

export interface SessionCookies {
  /** Sets the session cookie (HttpOnly) and the CSRF cookie (readable by the page's script). */
  set(reply: FastifyReply, session: Session): void;
  clear(reply: FastifyReply): void;
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, options: SessionPluginOptions) => {
    await app.register(cookie);
    const sessions = new SessionStore(app.kv, options.lifetimes ?? DEFAULT_SESSION_LIFETIMES);
    const base = { path: '/', sameSite: 'lax' as const, secure: options.secureCookies };

    const cookies: SessionCookies = {
      set(reply, session) {
        // Without "remember me" the cookie ends with the browser; the server-side lifetime
        // (24 h, sliding) still applies.
        const maxAge = session.rememberMe
          ? Math.floor(sessions.lifetimeMs(true) / 1000)
          : undefined;
        const lifetime = maxAge === undefined ? {} : { maxAge };
        void reply.setCookie(SESSION_COOKIE, session.id, { ...base, ...lifetime, httpOnly: true });
        void reply.setCookie(CSRF_COOKIE, session.csrfToken, {
          ...base,
          ...lifetime,
          httpOnly: false,
        });
      },
      clear(reply) {
        void reply.clearCookie(SESSION_COOKIE, { ...base, httpOnly: true });
        void reply.clearCookie(CSRF_COOKIE, { ...base, httpOnly: false });
      },
    };

    app.decorate('sessions', sessions);
    app.decorate('sessionCookies', cookies);
    app.decorate('loginThrottle', new LoginThrottle(app.kv, options.loginThrottle));
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      const id = request.cookies[SESSION_COOKIE];
      if (id) request.session = await sessions.find(id);
    });
  },
  {
    name: 'foodshare-session',
    fastify: '5.x',
    dependencies: ['foodshare-key-value-store'],
  },
);
