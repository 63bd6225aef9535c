import { OAuthErrorBodySchema } from '../errors/oauth-errors.ts';

/**
 * The error answers of the endpoints a client calls with its credentials (token, revocation,
 * introspection, pushed authorization requests): a bad request, failed authentication, an
 * exhausted budget, and the `server_error` that hides an internal failure.
 */
export const clientEndpointErrorResponses = {
  400: OAuthErrorBodySchema,
  401: OAuthErrorBodySchema,
  429: OAuthErrorBodySchema,
  500: OAuthErrorBodySchema,
};

/**
 * Their answers name tokens or requests, which a cache would keep beyond a revocation (RFC 6749
 * 5.1, RFC 9126 2.2); `pragma` for HTTP/1.0 caches.
 */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
