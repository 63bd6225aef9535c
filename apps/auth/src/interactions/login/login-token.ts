import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formTokenMatches } from '../../pages/form-token.ts';

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

/**
 * The login form's CSRF token, before there is a session to hold one: a double-submit cookie.
 * A cross-site page can make the browser post the form (login CSRF: logging the victim into the
 * attacker's account) but can neither read nor set this cookie; with Secure cookies the
 * `__Host-` prefix also keeps sibling subdomains from planting one. HttpOnly: only the form,
 * written by the server, needs the value.
 */
function cookieName(app: FastifyInstance): string {
  const secure = app.sessionCookies.names.session.startsWith('__Host-');
  return `${secure ? '__Host-' : ''}fs_login_csrf`;
}

/** The browser's token, reused so that two open login tabs both keep working, or a new one. */
export function loginToken(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const existing = request.cookies[cookieName(app)];
  if (existing && TOKEN_PATTERN.test(existing)) return existing;
  const token = randomBytes(16).toString('hex');
  void reply.setCookie(cookieName(app), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookieName(app).startsWith('__Host-'),
  });
  return token;
}

export function loginTokenMatches(
  app: FastifyInstance,
  request: FastifyRequest,
  given: string | undefined,
) {
  return formTokenMatches(request.cookies[cookieName(app)], given);
}
