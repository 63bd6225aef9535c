import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Set while a request is counted, so that it is counted out exactly once. */
const COUNTED = Symbol('counted as under way');

declare module 'fastify' {
  interface FastifyInstance {
    /** The requests this app is handling (plugins/requests-under-way.ts). */
    requestsUnderWay: RequestsUnderWay;
  }
  interface FastifyRequest {
    [COUNTED]: boolean;
  }
}

export class RequestsUnderWay {
  #count = 0;

  /** How many requests are under way. */
  get count(): number {
    return this.#count;
  }

  enter(): void {
    this.#count += 1;
  }

  leave(): void {
    this.#count -= 1;
  }

  /**
   * Resolves once no request is under way, or after `ms` at most; with how many still are.
   * Polled, so that counting a request stays one increment and one decrement.
   */
  async settled(ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.#count > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.#count;
  }
}

/**
 * Counts the requests between their first hook and their answer, whether or not their client
 * is still there, so that a stop can let them finish before the stores close (a handler whose
 * client left runs on, and would otherwise fail halfway, e.g. after its commit).
 *
 * Counted out at onSend: onResponse waits for the answer to reach the client, and never comes
 * for a client that left; onRequestAbort tells when the client left, not when the handler is
 * done. onSend comes for every answer, errors and 404s included, once the handler (and the
 * error handler) has done its work; the onSend hooks after it only set headers. Nor does the
 * connection tell: node:http forgets a request as soon as its socket closes (trackRequests).
 * A handler that neither returns a body nor calls reply.send reaches no onSend once its client
 * left, and would stay counted: none of ours does (each returns its answer or sends it).
 */
export const requestsUnderWayPlugin = fp(
  (app: FastifyInstance) => {
    const underWay = new RequestsUnderWay();
    app.decorate('requestsUnderWay', underWay);
    app.decorateRequest(COUNTED, false);
    // Callback hooks, not async ones: they run on every request, and need no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      request[COUNTED] = true;
      underWay.enter();
      done();
    });
    // A client that leaves while an onRequest hook waits (the session lookup) would leave a
    // request that never ends: Fastify then reads the body of a destroyed stream, which neither
    // ends nor fails, so the request reaches neither its handler nor onSend, and stays counted.
    // It ends here instead, before any handler work, with an answer nobody reads (499: nginx's
    // "client closed request").
    app.addHook('preParsing', (request, reply, payload, done) => {
      // Destroyed before its end was read: the connection went (a stream read to its end is
      // destroyed too, while its client may still wait, should a hook ever read it first).
      if (request.raw.destroyed && !request.raw.readableEnded) {
        void reply.code(499).send();
        return;
      }
      done(null, payload);
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      // onSend runs again for the error an onSend hook throws.
      if (request[COUNTED]) {
        request[COUNTED] = false;
        underWay.leave();
      }
      done(null, payload);
    });
  },
  { name: 'foodshare-requests-under-way', fastify: '5.x' },
);
