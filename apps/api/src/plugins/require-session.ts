import { Problem } from '@foodshare/server-kit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: the route answers without a session (login, logout). Every other route needs one. */
    public?: boolean;
  }
}

/**
 * 401 unless the request carries a live session. No I/O: the session plugin has read it
 * already. Whether the account is still active is the handler's first step (requireActor, or
 * the one query of /users/current), so no request pays for a second look-up of the account.
 */
function requireLiveSession(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  done(request.session ? undefined : Problem.unauthorized());
}

/**
 * Every route registered in `instance` (and the plugins under it) needs a session unless its
 * config says `public: true`. Checked in onRequest, before the body is parsed and before any
 * validation or path check: an anonymous call gets 401 whatever it sends, never a 400 or a 404
 * that would tell it about the route. Runs after the CSRF check, so a forged request is still
 * refused first.
 */
export function requireSessionByDefault(instance: FastifyInstance): void {
  instance.addHook('onRoute', (route) => {
    if (route.config?.public === true) return;
    const own = route.onRequest;
    const hooks = own === undefined ? [] : Array.isArray(own) ? own : [own];
    route.onRequest = [requireLiveSession, ...hooks];
  });
}
