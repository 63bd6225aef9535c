import type { Actor } from '@foodshare/domain';
import { requireActor as readActor } from '@foodshare/server-kit';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { unauthenticated } from './access-tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's account, set by the route's `requireActor` hook. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** true: the route answers without a session (login, logout). */
    public?: boolean;
  }
}

/**
 * onRequest: 401 unless the request carries a live session or a valid access token. No I/O:
 * the session plugin and the access-token hook (access-tokens.ts) have read them already. It runs before the body is parsed and before any path check, so an
 * anonymous call gets 401 whatever it sends, never a 400 or a 404 that tells it about the route.
 */
export async function requireSession(request: FastifyRequest): Promise<void> {
  if (!request.session && !request.accessToken) throw unauthenticated();
}

/**
 * preValidation: gets the caller's account, from the session or PostgreSQL (docs/design.md
 * §3.11; 401 `accountInactive` when it is no longer active), and sets `request.actor`. It
 * comes first in the route's preValidation list, so the permission hooks after it (403) and
 * the schema validation (400) see a known caller.
 */
export async function requireActor(request: FastifyRequest): Promise<void> {
  request.actor = await readActor(request);
}

/** The caller's id, of its session or token, for a route that needs no account read. */
export function callerIdOf(request: FastifyRequest): number {
  const userId = request.session?.userId ?? request.accessToken?.userId;
  if (userId === undefined) throw unauthenticated();
  return userId;
}

function hooksOf(hooks: RouteOptions['onRequest'] | RouteOptions['preValidation']): unknown[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Boot check: every route says how it gets its caller. `config: { public: true }`, or
 * `onRequest: requireSession` (then `request.actor` only with `preValidation: [requireActor,
 * ...]`). A route that forgets it would answer anyone, so the app refuses to start.
 */
function checkCallerDeclared(route: RouteOptions): void {
  const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
  const session = hooksOf(route.onRequest).includes(requireSession);
  const actor = hooksOf(route.preValidation).includes(requireActor);
  const isPublic = route.config?.public === true;
  if (isPublic === session || (actor && !session)) {
    throw new Error(
      `${method} ${route.url}: say how the route gets its caller: config: { public: true }, ` +
        'or onRequest: requireSession (with preValidation: [requireActor, ...] for the account)',
    );
  }
}

/**
 * What a route's permission hook found out about the caller's right to act, for its handler:
 * the hook reads the facts it decides on (the 404 and 403 come before the body is validated),
 * and the handler uses them without reading them again.
 */
export class PermissionFacts<T> {
  readonly #facts = new WeakMap<FastifyRequest, T>();
  readonly #hook: string;

  constructor(hook: string) {
    this.#hook = hook;
  }

  set(request: FastifyRequest, facts: T): void {
    this.#facts.set(request, facts);
  }

  of(request: FastifyRequest): T {
    const facts = this.#facts.get(request);
    if (facts === undefined) throw new Error(`the route does not run ${this.#hook}`);
    return facts;
  }
}

/** `request.actor` for every route of `instance`, and the boot check of its routes. */
export function callerPlugin(instance: FastifyInstance): void {
  instance.decorateRequest('actor', null as unknown as Actor);
  instance.addHook('onRoute', checkCallerDeclared);
}
