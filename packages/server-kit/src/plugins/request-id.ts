import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Fastify options for request ids: a proxy's id is kept when it looks like one (so a
 * request can be followed across services), anything else is replaced.
 */
export function requestIdOptions(): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> {
  return {
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers[REQUEST_ID_HEADER];
      return typeof incoming === 'string' && /^[A-Za-z0-9._-]{8,128}$/.test(incoming)
        ? incoming
        : randomUUID();
    },
  };
}

export const requestIdPlugin = fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: 'foodshare-request-id', fastify: '5.x' },
);
