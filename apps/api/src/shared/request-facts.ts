import type { FastifyRequest } from 'fastify';

/**
 * What a route's permission hook found out, for its handler: the hook reads the facts it
 * decides on (401 and 403 come before the body is validated), and the handler uses them
 * without reading them again.
 */
export class RequestFacts<T> {
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
