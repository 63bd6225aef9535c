import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { REQUEST_ACTOR } from '../actor.ts';
import { presentsAccessToken } from '../oauth-grants/presented-access-token.ts';
import { EndedSessions } from '../session/ended-sessions.ts';
import { LoginThrottle, type LoginThrottleLimits } from '../session/login-throttle.ts';
import {
  DEFAULT_SESSION_LIFETIMES,
  type Session,
  type SessionLifetimes,
  SessionStore,
} from '../session/session-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
    sessionCookies: SessionCookies;
    loginThrottle: LoginThrottle;
    /** Sessions ended by the REST service, for the authorization server's back-channel logout. */
    endedSessions: EndedSessions;
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
  readonly names: { session: string; csrf: string };
  /** Sets the session cookie (HttpOnly) and the CSRF cookie (readable by the page's script). */
  set(reply: FastifyReply, session: Session): void;
  clear(reply: FastifyReply): void;
}

/**
 * Cookie names. Secure cookies take the `__Host-` prefix: browsers then accept them only
 * from this exact origin over HTTPS, so a sibling subdomain cannot plant one. The CSRF cookie
 * is `CSRF_TOKEN` because the platform's web client finds its token with
 * `/CSRF_TOKEN=([0-9a-f]+)/` in `document.cookie` (which the prefix does not disturb).
 */
export function sessionCookieNames(secure: boolean): { session: string; csrf: string } {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}fs_session`, csrf: `${prefix}CSRF_TOKEN` };
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, options: SessionPluginOptions) => {
    await app.register(cookie);
    const sessions = new SessionStore(app.kv, options.lifetimes ?? DEFAULT_SESSION_LIFETIMES);
    const names = sessionCookieNames(options.secureCookies);
    const base = { path: '/', sameSite: 'lax' as const, secure: options.secureCookies };

    const cookies: SessionCookies = {
      names,
      set(reply, session) {
        // Without "remember me" the cookie ends with the browser; the server-side lifetime
        // (24 h, sliding) still applies.
        const lifetime = session.rememberMe
          ? { maxAge: Math.floor(sessions.lifetimeMs(true) / 1000) }
          : {};
        void reply.setCookie(names.session, session.id, { ...base, ...lifetime, httpOnly: true });
        void reply.setCookie(names.csrf, session.csrfToken, {
          ...base,
          ...lifetime,
          httpOnly: false,
        });
      },
      clear(reply) {
        void reply.clearCookie(names.session, { ...base, httpOnly: true });
        void reply.clearCookie(names.csrf, { ...base, httpOnly: false });
      },
    };

    app.decorate('sessions', sessions);
    app.decorate('sessionCookies', cookies);
    app.decorate('loginThrottle', new LoginThrottle(app.kv, options.loginThrottle));
    app.decorate('endedSessions', new EndedSessions(app.kv));
    app.decorateRequest('session', null);
    app.decorateRequest(REQUEST_ACTOR, null);
    app.addHook('onRequest', async (request, reply) => {
      // A request with an access token is a token caller (docs/oauth.md §11): its cookie is
      // ignored entirely, so it has no session, and no CSRF token is asked of it.
      if (presentsAccessToken(request.headers.authorization)) return;
      const id = request.cookies[names.session];
      if (!id) return;
      request.session = await sessions.find(id);
      // The server extended a remembered session: the browser's cookie must last as long.
      if (request.session?.renewed && request.session.rememberMe) {
        cookies.set(reply, request.session);
      }
    });
  },
  {
    name: 'foodshare-session',
    fastify: '5.x',
    dependencies: ['foodshare-key-value-store'],
  },
);
