import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Problem } from '../problem.ts';

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false exempts a route from the header check: only for routes that start a session
     * (login), or that check a form field of their own.
     */
    csrf?: boolean;
  }
}

function sameToken(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Double-submit check of docs/design.md §2.3: a state-changing request made with a session must
 * echo the session's token in `X-CSRF-Token`. A forged cross-site request carries the
 * cookie but cannot read the token. Requests without a session have nothing to forge;
 * the route answers 401 if it needs a user.
 */
export const csrfPlugin = fp(
  (app: FastifyInstance) => {
    // onRequest: a forged request is refused before its body is even parsed.
    app.addHook('onRequest', (request, _reply, done) => {
      const { session } = request;
      const exempt =
        SAFE_METHODS.has(request.method) || !session || request.routeOptions.config.csrf === false;
      const header = request.headers[CSRF_HEADER];
      if (exempt || sameToken(session.csrfToken, typeof header === 'string' ? header : undefined)) {
        done();
        return;
      }
      done(Problem.forbidden('CSRF_FAILED', 'The X-CSRF-Token header is missing or wrong.'));
    });
  },
  { name: 'foodshare-csrf', fastify: '5.x', dependencies: ['foodshare-session'] },
);
