import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Headers every answer of a service carries, errors and 404s included, set in one
 * place so that no route can forget them:
 * - `Cache-Control: no-store` unless the route chose its own caching (a stored photo is
 *   immutable and private): answers hold personal data and follow the session, and a
 *   shared or browser cache must not hand them to the next user of the machine.
 * - `X-Content-Type-Options: nosniff`: a body is only ever what its type says.
 * - No framing (`X-Frame-Options` for old browsers, CSP `frame-ancestors` for current
 *   ones), so no page of ours can be overlaid for clickjacking. A route's own CSP (which
 *   must then say `frame-ancestors` itself) is left as it is.
 * - `Strict-Transport-Security` when the service is reached over https (BASE_URL): a browser
 *   that once came over https never again sends a request (nor a cookie) in plain text.
 *
 * createServiceApp registers it for every service, before any route, so that no route of any
 * service (JWKS, /metrics, the pages) is answered without them.
 */
export interface SecurityHeadersOptions {
  /** Whether BASE_URL is https. */
  https: boolean;
}

/** One year, without subdomains: other hosts under the same domain are not ours to bind. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export const securityHeadersPlugin = fp(
  (app: FastifyInstance, { https }: SecurityHeadersOptions) => {
    const always: Record<string, string> = {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      ...(https ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
    };
    // A callback hook, not an async one: it runs on every answer, and needs no promise.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
      if (!reply.hasHeader('content-security-policy')) {
        void reply.header('content-security-policy', "frame-ancestors 'none'");
      }
      void reply.headers(always);
      done(null, payload);
    });
  },
  { name: 'foodshare-security-headers', fastify: '5.x' },
);
